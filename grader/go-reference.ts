// The Go reference line: the Go solutions play the same schedules; the class report says how many passed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { run } from '../scripts/run.ts';
import { root } from './paths.ts';

type Event = { Action?: string; Test?: string; Package?: string; Output?: string };

// Every schedule's name, from the files under schedules/<kind>/.
export function scheduleNames(): Set<string> {
	const folder = join(root, 'schedules');
	const kinds = readdirSync(folder, { withFileTypes: true }).filter(
		(e) => e.isDirectory() && e.name !== 'schema'
	);
	return new Set(
		kinds.flatMap((kind) =>
			readdirSync(join(folder, kind.name))
				.filter((file) => file.endsWith('.json'))
				.map((file) => basename(file, '.json'))
		)
	);
}

// Counts the leaf subtests named after a schedule (t.Run(schedule.Name, …)) that passed, of those that ran.
export function countSchedules(
	json: string,
	names: Set<string>
): { passed: number; total: number; subtests: number; failed: string[] } {
	const results = new Map<string, string>();
	for (const line of json.split('\n')) {
		if (!line.startsWith('{')) continue;
		let event: Event;
		try {
			event = JSON.parse(line);
		} catch {
			continue;
		}
		if (!event.Test || (event.Action !== 'pass' && event.Action !== 'fail')) continue;
		results.set(`${event.Package ?? ''} ${event.Test}`, event.Action);
	}
	const tests = [...results.keys()];
	const leaves = tests.filter((test) => !tests.some((other) => other.startsWith(`${test}/`)));
	const scheduleOf = (test: string) => test.split('/').at(-1) ?? '';
	const played = leaves.filter((test) => names.has(scheduleOf(test)));
	const schedules = new Set(played.map(scheduleOf));
	const failed = [...new Set(played.filter((test) => results.get(test) === 'fail').map(scheduleOf))];
	return { passed: schedules.size - failed.length, total: schedules.size, subtests: played.length, failed };
}

export async function goReference(goDir = join(root, 'go'), timeoutMs = 180_000): Promise<string> {
	if (!existsSync(join(goDir, 'go.mod')))
		return 'Go reference: not run: there is no go/ folder with a go.mod';
	if (spawnSync('go', ['version']).status !== 0) return 'Go reference: not run: Go is not installed';
	const ran = await run('go', ['test', '-json', './...'], { cwd: goDir, timeoutMs, maxOutput: 20_000_000 });
	if (ran.timedOut) return `Go reference: stopped after ${timeoutMs / 1000} s`;
	const { passed, total, subtests, failed } = countSchedules(ran.output, scheduleNames());
	if (total === 0) {
		const why =
			ran.output.split('\n').find((line) => line.trim() && !line.startsWith('{')) ?? `exit code ${ran.code}`;
		return `Go reference: no schedule ran (${why.trim()})`;
	}
	const failing = failed.length ? `; failed: ${failed.join(', ')}` : '';
	return `Go reference: ${passed} of ${total} schedules (${subtests} subtests${failing})`;
}
