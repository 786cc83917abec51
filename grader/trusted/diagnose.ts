// Which of the lesson's mistakes a failing learner made, recognised by what their code does, never guessed.
//
//   const diagnosis = diagnose(checks, learnerAnswers, mistakes);
//   // { kind: 'mistake', name: 'new-key-per-attempt', matched: 11, of: 11, … }
//   // { kind: 'unnamed', first: { check: '…', case: 3, of: 25 }, closest: { name, matched: 7, of: 11 } }
//
// The inputs that count for a mistake are those where the learner's answer or the mistake's diverges from
// the reference (the check's judge says so). On each of them the two agree when both diverge with the same
// effect: the same answer to the letter, or the same story from the judge once the values code makes at random
// (UUIDs, timestamps, long random ids) are hidden and its account of the steps taken ("What happened") is left
// out, since code in another language takes other steps to the same end; where those values ordered a story's
// rows (a store listing its rows by a random key), the rows are compared in any order. A first line alike is not
// enough: it is often only the schedule's heading, the same for every way of failing it. A learner whose answers agree
// with a mistake's on every such input made that mistake ("11 of 11"); of two that do, the one whose steps the
// learner's took too is named. Anything less is said as what it is: not one of the named mistakes, with the
// closest one and how close when it agrees on half or more. Where requests run at once and the machine picks
// which goes first, only answers that agree count.
import type { Answer, Answers } from './answers.ts';
import type { PlannedCheck } from './expect.ts';
import type { Mistake } from './mistakes.ts';

export type Match = { name: string; mistake: string; matched: number; of: number };
// language: 'Go' when the run it was made from was the learner's Go, whose hints are hints.go.md's.
export type Diagnosis = { language?: 'Go' } & (
	| (Match & {
			kind: 'mistake';
			lesson: string | null;
			hint: number | null;
			hintTitle: string | null;
			alike: string[];
	  })
	| { kind: 'unwritten' }
	| {
			kind: 'unnamed';
			// The first input where the learner's code went another way: the check and the case's number.
			first: { check: string; case: number; of: number; heldOut: boolean; problem: string };
			closest: Match | null;
	  }
);

const diverges = (answer: Answer | undefined) => answer !== undefined && answer.problem !== null;

// A value code makes at random: a UUID, an ISO timestamp, milliseconds since 1970, a run of 16 hex digits or
// more, or a token of 10 or more letters, digits, '-' and '_' mixing letters and digits (nanoid, ULID, base64url).
const madeAtRandom = new RegExp(
	[
		String.raw`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`,
		String.raw`\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?`,
		String.raw`\b1\d{12}\b`,
		String.raw`\b[0-9a-f]{16,}\b`,
		String.raw`(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{10,}(?![\w-])`
	].join('|'),
	'gi'
);

// The judge's whole story with each value made at random hidden behind a stand-in, and the order such values
// impose hidden too: two runs that drew other UUIDs read alike, and a value seen twice is still one value.
export function withRandomHidden(story: string): string {
	const hidden = story.replace(madeAtRandom, standIns());
	return hidden.includes(standIn)
		? hidden
				.split('\n')
				.map(inOrderOfWhatIsNotRandom)
				.join('\n')
				.replace(/‹random \d+›/g, standIns())
		: hidden;
}

// Numbers each value by where it first appears: ‹random 1›, ‹random 2›, …
function standIns() {
	const seen = new Map<string, number>();
	return (value: string) => {
		if (!seen.has(value)) seen.set(value, seen.size + 1);
		return `${standIn}${seen.get(value)}›`;
	};
}
const standIn = '‹random ';

// A line that ends in JSON (a table the judge shows: "yours {"keys":[…]}") with every list whose items hold a
// random value sorted by the rest of their text: a store that lists its rows by key lists random keys at random.
function inOrderOfWhatIsNotRandom(line: string): string {
	const start = line.search(/[[{]/);
	if (start < 0 || !line.includes(standIn, start)) return line;
	try {
		return line.slice(0, start) + JSON.stringify(sorted(JSON.parse(line.slice(start))));
	} catch {
		return line;
	}
}
function sorted(value: unknown): unknown {
	if (Array.isArray(value)) {
		const items = value.map((item) => {
			const kept = sorted(item);
			return { kept, text: JSON.stringify(kept) ?? '' };
		});
		if (!items.some(({ text }) => text.includes(standIn))) return items.map(({ kept }) => kept);
		const rest = (text: string) => text.replace(/‹random \d+›/g, standIn);
		return items
			.sort((a, b) => (rest(a.text) < rest(b.text) ? -1 : rest(a.text) > rest(b.text) ? 1 : 0))
			.map(({ kept }) => kept);
	}
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, sorted(field)]));
}

// What an answer did, as the judge tells it, random values hidden, and without the story's account of the
// path the code took ("What happened: …", a database trace): two bodies of code, in two languages, can take
// other steps to the same answers and the same end state. Worked out once per answer.
const whatHappened = /\n\nWhat happened[^\n]*:\n[\s\S]*?(?=\n\n|$)/g;
const effects = new WeakMap<Answer, string>();
function effect(answer: Answer): string {
	let told = effects.get(answer);
	if (told === undefined)
		effects.set(
			answer,
			(told = inAnyOrder(withRandomHidden((answer.story ?? answer.answer ?? '').replace(whatHappened, ''))))
		);
	return told;
}

// A story whose values made at random also ordered its rows: a store that lists its rows by key lists random
// keys in a random order (key-per-attempt-server-side's three keys on PostgreSQL), in the judge's table, side
// by side or stacked, or in a list of lines. So each cell that holds such a value (a line, or a column of a
// table's line: the text between runs of three spaces or more) leaves its place for a stand-in, and the cells
// are compared as a set, each value told by the cells it is in: the same rows in another order are the same
// effect, and other rows, fewer rows, or one key used twice where there were two, are not.
function inAnyOrder(told: string): string {
	if (!told.includes(standIn)) return told;
	const cells: string[] = [];
	const placed = new Map<string, string[]>();
	const skeleton = told
		.split('\n')
		.map((line) =>
			line
				.split(/( {3,})/)
				.map((part) => {
					if (!part.includes(standIn)) return part;
					const cell = part.replace(/‹random \d+›/g, standIn);
					cells.push(cell);
					for (const [k, value] of (part.match(/‹random \d+›/g) ?? []).entries())
						placed.set(value, [...(placed.get(value) ?? []), `${k} ${cell}`]);
					return '‹cell›';
				})
				.join('')
		)
		.join('\n');
	const values = [...placed.values()].map((where) => JSON.stringify(where.sort())).sort();
	return `${skeleton}\n\n${cells.sort().join('\n')}\n\n${values.join('\n')}`;
}
const agree = (a: Answer, b: Answer) =>
	diverges(a) && diverges(b) && (a.answer === b.answer || effect(a) === effect(b));

// The whole story, the path included, random values hidden: how two mistakes that agree everywhere are told
// apart, by the inputs where the learner's code also took the very steps a mistake took.
const stories = new WeakMap<Answer, string>();
function wholeStory(answer: Answer): string {
	let told = stories.get(answer);
	if (told === undefined) stories.set(answer, (told = withRandomHidden(answer.story ?? answer.answer ?? '')));
	return told;
}
function exactlyAlike(learner: Answers, mistake: Mistake): number {
	let same = 0;
	for (const [c, row] of learner.entries())
		for (const [i, answer] of row.entries()) {
			const theirs = mistake.answers[c]?.[i];
			if (diverges(answer) && theirs && diverges(theirs) && wholeStory(theirs) === wholeStory(answer)) same++;
		}
	return same;
}

// How many of the inputs where the learner's code or the mistake went wrong both went the same way. Every
// check counts alike: a check whose requests run at once on PostgreSQL ends the same way on every run, since
// the player decides which goes first (harness/endpoint/play.ts: a held request let go runs first).
function matchOf(learner: Answers, mistake: Mistake): Match {
	let matched = 0;
	let of = 0;
	for (const [c, row] of learner.entries())
		for (const [i, answer] of row.entries()) {
			const theirs = mistake.answers[c]?.[i];
			if (!diverges(answer) && !diverges(theirs)) continue;
			of++;
			if (theirs !== undefined && agree(answer, theirs)) matched++;
		}
	return { name: mistake.name, mistake: mistake.mistake, matched, of };
}

const unwritten = (learner: Answers) =>
	learner.flat().every((a) => !diverges(a) || a.answer?.startsWith('threw NotWrittenYet'));

export function diagnose(checks: PlannedCheck[], learner: Answers, mistakes: Mistake[]): Diagnosis | null {
	const firstCheck = learner.findIndex((row) => row.some(diverges));
	if (firstCheck < 0) return null;
	if (unwritten(learner)) return { kind: 'unwritten' };
	const matches = mistakes.map((mistake) => matchOf(learner, mistake));
	const full = matches.filter((m) => m.of > 0 && m.matched === m.of);
	if (full.length) {
		// Of the mistakes that agree everywhere, the one whose whole story (the path too) the learner's is on more
		// inputs is named; one told alike on as many inputs is alike, and both are named.
		const exact = new Map(
			full.map((m) => [
				m.name,
				exactlyAlike(
					learner,
					mistakes.find((n) => n.name === m.name)!
				)
			])
		);
		const [best, ...rest] = full.sort(
			(a, b) => exact.get(b.name)! - exact.get(a.name)! || a.name.localeCompare(b.name)
		);
		const alike = rest.filter((m) => exact.get(m.name) === exact.get(best!.name));
		const named = mistakes.find((m) => m.name === best!.name)!;
		return {
			kind: 'mistake',
			...best!,
			lesson: named.lesson,
			hint: named.hint,
			hintTitle: named.hintTitle,
			alike: alike.map((m) => m.name)
		};
	}
	const i = learner[firstCheck]!.findIndex(diverges);
	const check = checks[firstCheck]!;
	const closest = matches
		.filter((m) => m.of > 0 && m.matched * 2 >= m.of)
		.sort((a, b) => b.matched / b.of - a.matched / a.of || a.name.localeCompare(b.name))[0];
	return {
		kind: 'unnamed',
		first: {
			check: check.name,
			case: i + 1,
			of: check.cases.length,
			heldOut: check.heldOut,
			problem: learner[firstCheck]![i]!.problem!
		},
		closest: closest ?? null
	};
}

// The diagnosis in one line, as the report and the class page say it.
export function saidDiagnosis(diagnosis: Diagnosis): string {
	switch (diagnosis.kind) {
		case 'mistake': {
			const alike = diagnosis.alike.length ? ` (answers alike: ${diagnosis.alike.join(', ')})` : '';
			return `${diagnosis.name}: your answers match it on ${diagnosis.matched} of ${diagnosis.of} inputs where it or you differ from the reference${alike}`;
		}
		case 'unwritten':
			return 'not written yet: the stub is still there';
		case 'unnamed': {
			const { check, case: n, of } = diagnosis.first;
			const closest = diagnosis.closest
				? `; closest: ${diagnosis.closest.name}, on ${diagnosis.closest.matched} of ${diagnosis.closest.of} inputs`
				: '';
			return `not one of the named mistakes: first differs on "${check}", case ${n} of ${of}${closest}`;
		}
	}
}
