// A grading's first step: every place the grader writes swept of the folders graders killed outright left
// (leftovers.ts), so that what one grader leaves lives no longer than the start of the next.
//
//   await sweepLeftovers();   // how many folders were removed; a live grader's are never touched
import { tmpdir } from 'node:os';
import { removeLeftoverCgroups } from './cgroups.ts';
import { clusterParent } from './cluster.ts';
import { removeLeftovers } from './leftovers.ts';
import { viewParent } from './tree.ts';

// Where the grader makes its folders: views in memory (/dev/shm) when it can, the compiled harness, Go's
// builds and the traces in the OS temp dir, clusters on disk (/var/tmp, or WORKBOOK_GRADER_CLUSTERS).
export const graderPlaces = (): string[] => [...new Set([viewParent(), tmpdir(), clusterParent()])];

// One `readdir` a place, and one a cgroup controller (a run's cgroups are stamped too, cgroups.ts); only a
// gone grader's folders cost more (what works in them killed, mounts taken off).
export async function sweepLeftovers(): Promise<number> {
	let removed = removeLeftoverCgroups();
	for (const place of graderPlaces()) removed += await removeLeftovers(place);
	return removed;
}
