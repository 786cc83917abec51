// The expectations: what the reference solution does on every input of every check, computed in the grader's
// own process before any learner is graded (no learner code is ever loaded here), or read back frozen.
//
//   const planned = await planExercises(exercises(), { seed: 7, checks: 4, runs: 25 });
//   writeFileSync('expectations.json', JSON.stringify(frozen(planned)));          // for a package
//   const again = await planExercises(exercises(), settings, JSON.parse(text));    // no solutions/ needed
//
// The reference must pass every check it is judged by, or grading stops: a grade against a wrong reference
// would be wrong. A check the untouched stubs pass is free (worth nothing), computed here the same way.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Exercise } from '#harness/core/manifest.ts';
import type { RunContext } from '../channel/job.ts';
import type { Code, Observers } from '../inside/observer.ts';
import { root } from '../sandbox/paths.ts';
import type { GradingPostgres } from '../sandbox/postgres.ts';
import { observeMistakes, type Mistake } from './mistakes.ts';
import { casesOf, loadProbe, observeFile, type Check, type ProbeSettings } from './probe.ts';

export type PlannedCheck = Check & { cases: unknown[]; expected: unknown[]; free: boolean };
// postgres: each run of this exercise gets a PostgreSQL database of its own (grader/sandbox/postgres.ts).
// mistakes: what each named wrong solution answered on the same inputs (mistakes.ts), for the diagnosis: read
// from frozen expectations, or observed on first need (plannedMistakes), once per grading.
export type Planned = {
	exercise: Exercise;
	checks: PlannedCheck[] | null;
	postgres: boolean;
	mistakes?: Promise<Mistake[]>;
};
export type Frozen = {
	settings: ProbeSettings;
	exercises: Record<string, { name: string; cases: unknown[]; expected: unknown[]; free: boolean }[]>;
	mistakes?: Record<string, Mistake[]>;
};

// The reference's answers read as a learner's are (grader/inside/plain.ts, loaded by its path like the observers):
// the same copy on both sides of the wall, so an honest answer reads the same.
const plainFile = pathToFileURL(join(root, 'grader', 'inside', 'plain.ts')).href;
const { awaitable, plain } = (await import(plainFile)) as {
	awaitable: (value: unknown) => unknown;
	plain: (value: unknown) => unknown;
};
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(plain(value)));

async function codeFrom(folder: string, exercise: Exercise): Promise<Code> {
	const code: Code = {};
	for (const file of exercise.learnerFiles)
		code[file] = await import(pathToFileURL(join(root, folder, exercise.folder, file)).href);
	return code;
}

async function observe(observers: Observers, code: Code, check: Check, input: unknown, run: RunContext) {
	return asJson(await awaitable(observers[check.observer]!(code, input, run)));
}

const passes = (check: Check, input: unknown, observed: unknown, expected: unknown) => {
	try {
		return check.judge(input, observed, expected) === null;
	} catch {
		return false;
	}
};

export async function planExercise(
	exercise: Exercise,
	settings: ProbeSettings,
	frozen?: Frozen,
	databases?: GradingPostgres
): Promise<Planned> {
	const loaded = await loadProbe(exercise);
	if (!loaded) return { exercise, checks: null, postgres: false, mistakes: Promise.resolve([]) };
	const postgres = exercise.postgres === 'only';
	const checks = loaded.probe(settings);
	const observers = ((await import(pathToFileURL(observeFile(exercise)).href)) as { observers: Observers })
		.observers;
	for (const check of checks)
		if (!observers[check.observer])
			throw new Error(
				`${exercise.folder}: check "${check.name}" names observer "${check.observer}", which grader/inside/${exercise.folder}.observe.ts does not have`
			);
	if (frozen) {
		const kept = frozen.exercises[exercise.folder] ?? [];
		return {
			exercise,
			postgres,
			mistakes: Promise.resolve(frozen.mistakes?.[exercise.folder] ?? []),
			checks: checks.map((check, i) => {
				if (kept[i]?.name !== check.name)
					throw new Error(
						`the frozen expectations do not match ${exercise.folder}'s checks (at "${check.name}")`
					);
				return { ...check, cases: kept[i]!.cases, expected: kept[i]!.expected, free: kept[i]!.free };
			})
		};
	}
	if (postgres && !databases)
		throw new Error(`${exercise.folder} needs PostgreSQL: planExercises must be given a GradingPostgres`);
	// The reference and the stubs, like every run, play on a database of their own, dropped after.
	const database = postgres ? await databases!.runDatabase() : null;
	try {
		return {
			exercise,
			postgres,
			checks: await expectations(exercise, observers, checks, { postgres: database?.job ?? null })
		};
	} finally {
		await database?.drop();
	}
}

// What the named mistakes answer on this plan's inputs, observed on the first call (a class whose learners all
// pass never pays for it) and kept on the plan, so a grading observes each exercise's mistakes once.
export function plannedMistakes(plan: Planned, databases?: GradingPostgres): Promise<Mistake[]> {
	plan.mistakes ??= (async () => {
		if (!plan.checks) return [];
		const observers = (
			(await import(pathToFileURL(observeFile(plan.exercise)).href)) as { observers: Observers }
		).observers;
		const database = plan.postgres ? await databases!.runDatabase() : null;
		const run: RunContext = { postgres: database?.job ?? null };
		try {
			return await observeMistakes(plan.exercise, plan.checks, (code, check, input) =>
				observe(observers, code, check, input, run)
			);
		} finally {
			await database?.drop();
		}
	})();
	return plan.mistakes;
}

async function expectations(
	exercise: Exercise,
	observers: Observers,
	checks: Check[],
	run: RunContext
): Promise<PlannedCheck[]> {
	const reference = await codeFrom('solutions', exercise);
	const stubs = await codeFrom('exercises', exercise);
	const planned: PlannedCheck[] = [];
	for (const check of checks) {
		const expected: unknown[] = [];
		const cases = casesOf(check);
		for (const input of cases) {
			let answer: unknown;
			try {
				answer = await observe(observers, reference, check, input, run);
			} catch (error) {
				throw new Error(
					`The reference solution of ${exercise.folder} threw on "${check.name}": ${String(error)}; grading stopped.`
				);
			}
			const problem = check.judge(input, answer, answer);
			if (problem)
				throw new Error(
					`The reference solution of ${exercise.folder} does not pass "${check.name}"; grading stopped.\n${problem}`
				);
			expected.push(answer);
		}
		let free = true;
		for (const [i, input] of cases.entries()) {
			try {
				free = passes(check, input, await observe(observers, stubs, check, input, run), expected[i]);
			} catch {
				free = false;
			}
			if (!free) break;
		}
		planned.push({ ...check, cases, expected, free });
	}
	return planned;
}

export async function planExercises(
	exercises: Exercise[],
	settings: ProbeSettings,
	frozen?: Frozen,
	databases?: GradingPostgres
) {
	if (frozen && JSON.stringify(frozen.settings) !== JSON.stringify(settings))
		throw new Error(
			`the frozen expectations were made with ${JSON.stringify(frozen.settings)}, not ${JSON.stringify(settings)}`
		);
	const planned: Planned[] = [];
	for (const exercise of exercises) planned.push(await planExercise(exercise, settings, frozen, databases));
	return planned;
}

// The plans as a package keeps them, the named mistakes' answers observed now (so a database must be given
// for an exercise on PostgreSQL).
export async function frozen(
	planned: Planned[],
	settings: ProbeSettings,
	databases?: GradingPostgres
): Promise<Frozen> {
	const mistakes: Record<string, Mistake[]> = {};
	for (const plan of planned.filter((p) => p.checks))
		mistakes[plan.exercise.folder] = await plannedMistakes(plan, databases);
	return {
		settings,
		mistakes,
		exercises: Object.fromEntries(
			planned
				.filter((p) => p.checks)
				.map((p) => [
					p.exercise.folder,
					p.checks!.map(({ name, cases, expected, free }) => ({ name, cases, expected, free }))
				])
		)
	};
}
