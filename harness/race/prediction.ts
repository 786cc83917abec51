// Exercise 03's prediction: what the learner guesses separate.ts leaves when two workers alternate, checked
// against the schedule that pins it (schedules/race/two-workers-alternate.json, the separate column).
import type { RaceSchedule } from './schedules.ts';
import { counted } from '../core/words.ts';

export type SecondWorker = 'created' | 'replayed' | 'conflict' | 'unique-violation';
export type Prediction = {
	tickets: number | undefined;
	receipts: number | undefined;
	secondWorker: SecondWorker | undefined;
};
export const secondWorkerChoices: readonly SecondWorker[] = [
	'created',
	'replayed',
	'conflict',
	'unique-violation'
];

// What the schedule says separate.ts does, in the prediction's terms.
export function truth(schedule: RaceSchedule): Prediction {
	const expected = schedule.expect.separate;
	const second = expected.answers[1]!;
	const secondWorker = second.kind === 'failed' ? second.error : second.kind;
	if (!secondWorkerChoices.includes(secondWorker as SecondWorker))
		throw new Error(
			`${schedule.name}: the second worker's answer ${JSON.stringify(second)} is not one the prediction can name`
		);
	return {
		tickets: expected.tickets.length,
		receipts: expected.receipts.length,
		secondWorker: secondWorker as SecondWorker
	};
}

// A nudge for each part that is off: a question to think about, never the answer.
const nudges: Record<keyof Prediction, string> = {
	tickets:
		'tickets: at step 2, B looks for a receipt. What has A committed by then? And what does B do next, whatever A does later?',
	receipts:
		'receipts: both workers try to save one for the same (tenant, source, event id). What does the unique key let through?',
	secondWorker:
		"secondWorker: B's last operation is saving its receipt, after A saved the same key. separate.ts has no try/catch. What reaches B's caller?"
};

// null when the prediction is right; otherwise what to write or to think again about.
export function judgePrediction(prediction: Prediction | undefined, schedule: RaceSchedule): string | null {
	const file = 'exercises/03-the-race/prediction.ts';
	if (!prediction) return `${file} exports no prediction.`;
	const blank = (Object.keys(nudges) as (keyof Prediction)[]).filter((key) => prediction[key] === undefined);
	if (blank.length) {
		return `Write your prediction first: ${blank.join(', ')} ${blank.length > 1 ? 'are' : 'is'} still undefined in ${file}.\nGuess before you run anything: the lesson asks you to, and a guess you wrote down is one you can be surprised by.`;
	}
	if (typeof prediction.tickets !== 'number' || typeof prediction.receipts !== 'number')
		return `In ${file}, tickets and receipts are numbers.`;
	if (!secondWorkerChoices.includes(prediction.secondWorker!))
		return `In ${file}, secondWorker is one of ${secondWorkerChoices.map((c) => `'${c}'`).join(', ')}; you wrote ${JSON.stringify(prediction.secondWorker)}.`;
	const actual = truth(schedule);
	const off = (Object.keys(nudges) as (keyof Prediction)[]).filter((key) => prediction[key] !== actual[key]);
	if (!off.length) return null;
	const parts = off.map((key) => `  - ${nudges[key]}`).join('\n');
	return `Not quite: your prediction (${counted(prediction.tickets, 'ticket')}, ${counted(prediction.receipts, 'receipt')}, B: ${prediction.secondWorker}) is off in ${off.length === 1 ? 'one place' : `${off.length} places`}. Think again about:\n${parts}\nThen change ${file} and run the test again. (Running it shows the trace once your guess is right.)`;
}
