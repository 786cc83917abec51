// The Go reference line: the Go solutions play the same schedules; the class report says how many passed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { goTest, goVersion, type GoReport } from '../../lib/go-test.ts';
import { scheduleFiles } from '../../lib/schedule-files.ts';
import { root } from '../sandbox/paths.ts';

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

// The line itself. Any failure (a test, a package that did not build, go test's own exit code) makes it say
// FAILED first, with counts taken from what ran: never a schedule tally alone over a red run.
export function referenceLine(report: GoReport, files: string[]): string {
	const { passed, total, subtests, failed, unplayed } = countSchedules(report, files);
	const ran = report.tests.filter((test) => test.leaf && test.status !== 'skipped');
	const red = ran.filter((test) => test.status === 'failed').map((test) => test.name);
	const broken = report.problems.map((problem) => problem.split('\n')[0]!);
	if (report.code !== 0 && red.length === 0 && broken.length === 0)
		broken.push(`go test exited with code ${report.code}`);
	const schedules = `${passed} of ${total} schedules green`;
	const notes = [`${subtests} schedule subtests`];
	if (failed.length) notes.push(`failed: ${failed.join(', ')}`);
	if (unplayed) notes.push(`${unplayed} not played`);
	if (red.length || broken.length) {
		const what = [
			red.length &&
				`${red.length} of ${ran.length} Go tests failed (${red.slice(0, 3).join(', ')}${red.length > 3 ? ', …' : ''})`,
			broken.length && broken.join('; ')
		].filter(Boolean);
		return `Go reference: FAILED: ${what.join('; ')}; ${schedules} (${notes.join('; ')})`;
	}
	if (subtests === 0)
		return `Go reference: no schedule ran (no test said it plays one; ${ran.length} Go tests ran)`;
	if (failed.length || unplayed) return `Go reference: FAILED: ${schedules} (${notes.join('; ')})`;
	return `Go reference: ${schedules}, all ${ran.length} Go tests passed (${notes.join('; ')})`;
}

export async function goReference(goDir = join(root, 'go'), timeoutMs = 180_000): Promise<string> {
	if (!existsSync(join(goDir, 'go.mod')))
		return 'Go reference: not run: there is no go/ folder with a go.mod';
	if (!(await goVersion())) return 'Go reference: not run: Go is not installed';
	const report = await goTest(goDir, timeoutMs);
	return referenceLine(report, scheduleFiles(join(root, 'schedules')));
}
