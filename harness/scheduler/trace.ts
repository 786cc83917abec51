// A run's trace: what each worker did, step by step, in sentences a learner can read aloud.

// One thing that happened. step is the scheduler's step (0 before the first one), worker who did it.
export type TraceLine = { step: number; worker: string; text: string };

// "  3. A saves ticket #1 (acme: Cannot sign in)." Lines of one step share its number.
export function tellTrace(trace: readonly TraceLine[]): string {
	let last = -1;
	return trace
		.map((line) => {
			const number = line.step === last ? '' : line.step === 0 ? 'start' : `${line.step}.`;
			last = line.step;
			return `${number.padStart(6)} ${line.text}`;
		})
		.join('\n');
}
