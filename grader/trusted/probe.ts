// What the grader checks for one exercise, and how it judges it outside the sandbox.
//
//   // grader/checks/01-first-handler.held.ts
//   export const probe: Probe = ({ seed, checks, runs }) => [
//   	{ name: 'the schedules › One delivery', heldOut: false, observer: 'schedule', cases: [schedule],
//   	  judge: (schedule, played) => judgeHandler(schedule, 'create-every-time', played) }
//   ];
//
// A check names an observer (grader/inside/<folder>.observe.ts, the only per-exercise code in the sandbox)
// and the inputs to hand it, as data. The sandbox sends back what the learner's code did on each input; the
// grader runs the same observer on the reference solution in its own process (no learner code there), and
// `judge(input, observed, expected)` says, outside the sandbox, whether the learner's answer is right: null,
// or the message the learner reads. Given checks replay the shipped schedules (their expectations are public);
// held-out checks are random inputs from the seed, judged against the reference's answers or, where two right
// solutions may take different paths (03, 05), against what must hold.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import type { Exercise } from '#harness/core/manifest.ts';
import { NotWrittenYet } from '#harness/core/todo.ts';
import type { SaidError } from '../channel/observations.ts';
import { root } from '../sandbox/paths.ts';

export type ProbeSettings = { seed: number; checks: number; runs: number };
export type Check = {
	name: string;
	heldOut: boolean;
	observer: string;
	// The inputs, or how to draw them (held-out ones are drawn only when expectations are computed, so a
	// package with frozen expectations never needs what drawing them may use, such as the reference).
	cases: unknown[] | (() => unknown[]);
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	judge: (input: any, observed: any, expected: any) => string | null;
};
export type Probe = (settings: ProbeSettings) => Check[];

export const heldOutFile = (exercise: Exercise) =>
	join(root, 'grader', 'checks', `${exercise.folder}.held.ts`);
export const observeFile = (exercise: Exercise) =>
	join(root, 'grader', 'inside', `${exercise.folder}.observe.ts`);

// The exercise's probe; null for an exercise the grader has no checks for.
export async function loadProbe(exercise: Exercise): Promise<{ probe: Probe } | null> {
	const file = heldOutFile(exercise);
	if (!existsSync(file)) return null;
	if (!existsSync(observeFile(exercise)))
		throw new Error(`${file} has no observer file: write grader/inside/${exercise.folder}.observe.ts`);
	const module = (await import(pathToFileURL(file).href)) as { probe?: Probe };
	if (typeof module.probe !== 'function') throw new Error(`${file} must export a function named probe`);
	return { probe: module.probe };
}

// `checks` held-out checks of `runs` random inputs each, the k-th from seed + k: "held-out schedules, check 2 of 4".
export function heldOut<T>(
	settings: ProbeSettings,
	what: string,
	cases: fc.Arbitrary<T>,
	make: (name: string) => Omit<Check, 'name' | 'cases' | 'heldOut'>
): Check[] {
	return Array.from({ length: settings.checks }, (_, k) => {
		const name = `held-out ${what}, check ${k + 1} of ${settings.checks}`;
		const drawn = () => fc.sample(cases, { seed: settings.seed + k, numRuns: settings.runs });
		return { name, heldOut: true, cases: drawn, ...make(name) };
	});
}

// The same value, whatever the key order: how differential checks compare answers.
export function canonical(value: unknown): string {
	return JSON.stringify(value, (_key, v: unknown) =>
		v && typeof v === 'object' && !Array.isArray(v)
			? Object.fromEntries(Object.entries(v as object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
			: v
	);
}
export const said = (value: unknown) => JSON.stringify(value) ?? 'undefined';
export const casesOf = (check: Pick<Check, 'cases'>): unknown[] =>
	typeof check.cases === 'function' ? check.cases() : check.cases;
// An error the sandbox sent back as data (grader/channel/observations.ts), an error again for the judges:
// a stub's NotWrittenYet keeps its own words.
export function revivedError({ name, message }: SaidError): Error {
	if (name === 'NotWrittenYet') return new NotWrittenYet(message);
	return Object.assign(new Error(message), { name });
}
