// The Go reference line: the Go solutions play the same schedules; the class report says how many passed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { goTest, goVersion, type GoReport } from '../scripts/go-test.ts';
import { scheduleFiles } from '../scripts/parity.ts';
import { root } from './paths.ts';

export type GoCount = { passed: number; total: number; subtests: number; failed: string[]; unplayed: number };

// Of the schedule files, how many the Go tests played (their "plays …" lines) with every such test green.
export function countSchedules(report: GoReport, files: string[]): GoCount {
	const green = new Map<string, boolean>();
	let subtests = 0;
	for (const test of report.tests) {
		if (test.plays.length === 0 || test.status === 'skipped') continue;
		subtests += 1;
		for (const played of test.plays) {
			const schedule = played.split(' as ')[0]!;
			green.set(schedule, (green.get(schedule) ?? true) && test.status === 'passed');
		}
	}
	const failed = files.filter((file) => green.get(file) === false);
	const played = files.filter((file) => green.has(file)).length;
	return {
		passed: played - failed.length,
		total: files.length,
		subtests,
		failed,
		unplayed: files.length - played
	};
}

export async function goReference(goDir = join(root, 'go'), timeoutMs = 180_000): Promise<string> {
	if (!existsSync(join(goDir, 'go.mod')))
		return 'Go reference: not run: there is no go/ folder with a go.mod';
	if (!(await goVersion())) return 'Go reference: not run: Go is not installed';
	const report = await goTest(goDir, timeoutMs);
	const { passed, total, subtests, failed, unplayed } = countSchedules(
		report,
		scheduleFiles(join(root, 'schedules'))
	);
	if (subtests === 0)
		return `Go reference: no schedule ran (${report.problems[0]?.split('\n')[0] ?? 'no test said it plays one'})`;
	const notes = [`${subtests} subtests`];
	if (failed.length) notes.push(`failed: ${failed.join(', ')}`);
	if (unplayed) notes.push(`${unplayed} not played`);
	return `Go reference: ${passed} of ${total} schedules (${notes.join('; ')})`;
}
