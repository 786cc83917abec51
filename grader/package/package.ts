// npm run grade:package -- [--out grades/autograder.zip] [--seed n]: Gradescope's autograder zip.
//
// The zip holds setup.sh and run_autograder at its top (grader/package/), the workbook without solutions/
// and without the grader's samples and tests, and grader/expectations.json: what the reference does on every
// check, frozen now with one seed, so the package grades without the reference. Gradescope unpacks it into
// /autograder/source; grader/package/platforms.test.ts plays that layout under a temporary folder.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exercises } from '#harness/core/manifest.ts';
import { planExercises, frozen } from '../trusted/expect.ts';
import { GradingPostgres } from '../sandbox/postgres.ts';
import { defaults } from '../trusted/grade.ts';
import { root } from '../sandbox/paths.ts';
import { isMain } from '../../lib/main-module.ts';

const copied = [
	'package.json',
	'package-lock.json',
	'tsconfig.json',
	'exercises',
	'schedules',
	'harness',
	'lib',
	'grader'
];
// Never in the package: the reference, the grader's own samples and tests, and what a checkout leaves around.
const left = (path: string) =>
	/(^|\/)(solutions|node_modules|samples|\.vite|\.learner|\.vitest-progress)(\/|$)/.test(path) ||
	/\.test\.ts$/.test(path);

export async function writePackage(out: string, settings: { seed: number; checks: number; runs: number }) {
	const stage = mkdtempSync(join(tmpdir(), 'grade-package-'));
	try {
		for (const entry of copied)
			cpSync(join(root, entry), join(stage, entry), {
				recursive: true,
				filter: (from) => !left(from.slice(root.length))
			});
		// The reference plays 06 on a PostgreSQL of its own, stopped as soon as the expectations are frozen.
		const databases = new GradingPostgres();
		const kept = await planExercises(exercises(), settings, undefined, databases)
			.then((plans) => frozen(plans, settings, databases))
			.finally(() => databases.stop());
		writeFileSync(join(stage, 'grader', 'expectations.json'), JSON.stringify(kept));
		for (const script of ['setup.sh', 'run_autograder']) {
			cpSync(join(root, 'grader', 'package', script), join(stage, script));
			chmodSync(join(stage, script), 0o755);
		}
		mkdirSync(dirname(out), { recursive: true });
		rmSync(out, { force: true });
		execFileSync('zip', ['-qr', out, '.'], { cwd: stage });
		return out;
	} finally {
		rmSync(stage, { recursive: true, force: true });
	}
}

if (isMain(import.meta.url)) {
	const { values } = parseArgs({
		options: {
			out: { type: 'string', default: 'grades/autograder.zip' },
			seed: { type: 'string' },
			'held-out-checks': { type: 'string' },
			'held-out-runs': { type: 'string' }
		}
	});
	const settings = {
		seed: values.seed ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31),
		checks: Number(values['held-out-checks'] ?? defaults.heldOutChecks),
		runs: Number(values['held-out-runs'] ?? defaults.heldOutRuns)
	};
	const out = await writePackage(resolve(values.out), settings);
	console.log(`wrote ${basename(out)} (${out}): held-out checks frozen with seed ${settings.seed}`);
}
