// The differential check's cases: made up from a seed by fast-check, written once as JSON, and played by the
// TypeScript solutions (play-ts.ts) and the Go solutions (go/cmd/differential). One seed, one file, the
// same cases for both. The kinds:
//
//   identity  two events whose fields hold separators and case            → does sameEvent call them one?
//   handler   deliveries of such events, with faults                      → each handler's answers and store
//   endpoint  requests to the fake ticket endpoint: keys near 255 code    → every reply, and the tickets
//             points, subjects of Unicode white space, bodies of any shape
//   storage   a stored entry (damaged or not) and what a page then does   → every answer, and what is stored
//   journey   a made-up client journey (sends, lost replies, held         → every request, what the form shows
//             requests, reloads, a stored entry, a storage that breaks)     after each step, and the tickets
//   schedule  a real schedule file with one field changed                 → does each loader accept it?
import fc from 'fast-check';
import type { ClientJourney, ClientName } from '#harness/client/journeys.ts';
import { journeyOf, moves } from '#harness/client/explore.ts';
import type { Fault, Webhook } from '#harness/core/model.ts';
import { entryName } from '#harness/client/model.ts';
import { maxKeyLength } from '#harness/endpoint/contract.ts';

export type StorageMethod = 'getItem' | 'setItem' | 'removeItem';
export type StorageStep =
	| { do: 'pending' }
	| { do: 'begin'; body: Record<string, string> }
	| { do: 'finish' }
	| { do: 'fail'; methods: StorageMethod[] }
	| { do: 'heal' }
	| { do: 'reload' };
export type EndpointStep =
	| { do: 'arrive'; key: string; body: unknown }
	| { do: 'respond'; request: number; fault: 'none' | 'before-commit' };
export type ScheduleKind = 'handler' | 'race' | 'outbox' | 'client';

export type Case =
	| { kind: 'identity'; a: Webhook; b: Webhook }
	| { kind: 'handler'; deliveries: { event: Webhook; fault: Fault }[] }
	| { kind: 'endpoint'; steps: EndpointStep[] }
	| { kind: 'storage'; stored: string | null; steps: StorageStep[] }
	| { kind: 'journey'; journey: ClientJourney }
	| { kind: 'schedule'; schedule: ScheduleKind; name: string; text: string; changed: string };

export type Cases = { seed: number; cases: Case[] };

// Field values from a tiny alphabet: the usual separators, and a letter in two cases.
const separators = ['', ':', '/', '|', '-', '.'];
const text = fc
	.array(fc.constantFrom('a', 'A', 'b', ...separators.filter(Boolean)), { maxLength: 4 })
	.map((pieces) => pieces.join(''));
const subject = fc.constantFrom('Cannot sign in', 'cannot sign in', 'CANNOT SIGN IN', 'Printer on fire');
const event = fc.record({ tenant: text, source: text, eventId: text, subject });
// Two events that read the same joined with one separator, or differ only in case, or are unrelated.
const lookalike = fc
	.tuple(text, text, text, text, fc.constantFrom(...separators), subject)
	.map(([x, y, z, u, sep, subject]): [Webhook, Webhook] => [
		{ tenant: x + sep + y, source: z, eventId: u, subject },
		{ tenant: x, source: y + sep + z, eventId: u, subject }
	]);
const otherCase = event.map((e): [Webhook, Webhook] => [e, { ...e, eventId: e.eventId.toUpperCase() }]);
const identity = fc
	.oneof(lookalike, otherCase, fc.tuple(event, event))
	.map(([a, b]): Case => ({ kind: 'identity', a, b }));

// A few events, so that repeats happen; each delivery picks one, with a fault.
const handler = fc
	.array(event, { minLength: 1, maxLength: 3 })
	.chain((events) =>
		fc.array(
			fc.record({
				event: fc.constantFrom(...events),
				fault: fc.constantFrom<Fault>('none', 'none', 'after-commit', 'before-commit')
			}),
			{ minLength: 1, maxLength: 6 }
		)
	)
	.map((deliveries): Case => ({ kind: 'handler', deliveries }));

// Keys around the contract's limit (Stripe's 255 characters), and around half of it, where two-byte letters
// cross it in bytes; in letters that are one, two or four bytes, and one or two UTF-16 units.
const half = maxKeyLength / 2;
const lengths = [Math.floor(half), Math.ceil(half), maxKeyLength - 1, maxKeyLength, maxKeyLength + 1];
const key = fc.oneof(
	fc.constantFrom('', 'k', 'K', 'key-1', 'a b'),
	fc
		.tuple(fc.constantFrom('k', 'é', '😀', '中'), fc.constantFrom(...lengths))
		.map(([letter, count]) => letter.repeat(count))
);
// Subjects that are blank, or look blank, to one language or the other.
const blankish = fc.constantFrom(
	'',
	' ',
	'\t\n',
	'\u00a0',
	'\u2003\u3000',
	'\ufeff',
	'\u0085',
	'\u200b',
	'\u2028',
	'\u180e',
	' x '
);
const body = fc.oneof(
	fc.record({ subject: fc.oneof(subject, blankish) }),
	fc.constantFrom<unknown>({ subject: 7 }, { subject: null }, {}, { Subject: 'x' }, null, [], 'text', 7)
);
const endpoint = fc
	.array(
		fc.record({
			key,
			body,
			now: fc.boolean(),
			fault: fc.constantFrom<'none' | 'before-commit'>('none', 'none', 'before-commit')
		}),
		{ minLength: 1, maxLength: 6 }
	)
	.map((requests): Case => {
		// Each request arrives; some are answered at once, the rest at the end, last first.
		const steps: EndpointStep[] = [];
		const held: { request: number; fault: 'none' | 'before-commit' }[] = [];
		requests.forEach((r, i) => {
			steps.push({ do: 'arrive', key: r.key, body: r.body });
			if (r.now) steps.push({ do: 'respond', request: i + 1, fault: r.fault });
			else held.push({ request: i + 1, fault: r.fault });
		});
		for (const h of held.reverse()) steps.push({ do: 'respond', ...h });
		return { kind: 'endpoint', steps };
	});

// What a tab's storage may hold under the form's entry: a submission, or something damaged.
const storedKey = fc.constantFrom<unknown>('key-0', '', 7, null, 'KEY-0');
const storedBody = fc.constantFrom<unknown>(
	{ subject: 'Cannot sign in' },
	{ subject: 7 },
	{ subject: 'x', other: 'y' },
	{ subject: 'x', count: 1 },
	{},
	null,
	'Cannot sign in',
	['Cannot sign in'],
	{ subject: { nested: 'x' } }
);
const stored = fc.oneof(
	{ weight: 4, arbitrary: storedBody.map((body) => JSON.stringify({ key: 'key-0', body })) },
	{
		weight: 2,
		arbitrary: fc
			.tuple(storedKey, storedBody, fc.constantFrom('both', 'no-key', 'no-body'))
			.map(([key, body, has]) =>
				JSON.stringify(has === 'both' ? { key, body } : has === 'no-key' ? { body } : { key })
			)
	},
	{
		weight: 1,
		arbitrary: fc.constantFrom(
			'not json {',
			'null',
			'42',
			'"key-0"',
			'[]',
			'{"key":"key-0","body":{"subject":"a"},"key":""}'
		)
	},
	{ weight: 1, arbitrary: fc.constant(null) }
);
const method = fc.constantFrom<StorageMethod>('getItem', 'setItem', 'removeItem');
const storageStep = fc.oneof(
	fc.constant<StorageStep>({ do: 'pending' }),
	subject.map((s): StorageStep => ({ do: 'begin', body: { subject: s } })),
	fc.constant<StorageStep>({ do: 'finish' }),
	fc
		.uniqueArray(method, { minLength: 1, maxLength: 3 })
		.map((methods): StorageStep => ({ do: 'fail', methods })),
	fc.constant<StorageStep>({ do: 'heal' }),
	fc.constant<StorageStep>({ do: 'reload' })
);
const storage = fc
	.tuple(stored, fc.array(storageStep, { minLength: 1, maxLength: 8 }))
	.map(([stored, steps]): Case => ({ kind: 'storage', stored, steps }));

// The made-up journeys of 04's property test, with a first subject that may be blank, the other client now
// and then, a stored entry written behind the page's back, and a storage that breaks part way.
const journey = fc
	.tuple(
		fc.array(moves, { minLength: 1, maxLength: 10 }),
		fc.oneof(subject, blankish),
		fc.constantFrom<ClientName>('key-store', 'key-store', 'key-store', 'new-key-per-attempt'),
		fc.option(stored.filter((text) => text !== null)),
		fc.option(fc.nat(12))
	)
	.map(([list, first, client, behind, breakAt]): Case => {
		const made = journeyOf(list);
		const steps = made.steps.slice();
		steps[0] = { ...steps[0]!, subject: first };
		if (breakAt !== null)
			steps.splice(Math.min(breakAt, steps.length), 0, { do: 'break-storage', shows: {} });
		if (behind !== null)
			steps.unshift({ do: 'store', item: entryName('support'), value: behind!, shows: {} });
		return { kind: 'journey', journey: { ...made, client, steps } };
	});

// One field of a real schedule changed to a value that may break a rule of its schema.
export type ScheduleSource = { schedule: ScheduleKind; name: string; data: unknown };
const oddValues: unknown[] = [
	0,
	-1,
	1,
	1.5,
	256,
	'',
	'x',
	'A',
	'a',
	'a-b',
	'Ab',
	null,
	true,
	[],
	{},
	['A', 'A']
];
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
	if (Array.isArray(value)) return [at, ...value.flatMap((item, i) => paths(item, [...at, i]))];
	if (value !== null && typeof value === 'object')
		return [at, ...Object.entries(value).flatMap(([name, inner]) => paths(inner, [...at, name]))];
	return [at];
}
function changed(data: unknown, path: (string | number)[], value: unknown): unknown {
	if (path.length === 0) return value;
	const [head, ...rest] = path;
	const copy = structuredClone(data) as Record<string | number, unknown>;
	copy[head!] = changed(copy[head!], rest, value);
	return copy;
}
function schedule(sources: ScheduleSource[]) {
	return fc
		.constantFrom(...sources)
		.chain((source) =>
			fc.tuple(
				fc.constant(source),
				fc.constantFrom(...paths(source.data).filter((p) => p.length > 0 && p[0] !== 'name')),
				fc.constantFrom(...oddValues)
			)
		)
		.map(([source, path, value]): Case => ({
			kind: 'schedule',
			schedule: source.schedule,
			name: source.name,
			text: JSON.stringify(changed(source.data, path, value)),
			changed: `${path.join('.')} = ${JSON.stringify(value)}`
		}));
}

export const caseCounts = {
	identity: 300,
	handler: 300,
	endpoint: 300,
	storage: 300,
	journey: 300,
	schedule: 300
};

// The cases for one seed: the same seed gives the same cases, in the same order.
export function generateCases(seed: number, sources: ScheduleSource[], counts = caseCounts): Cases {
	const take = (arbitrary: fc.Arbitrary<Case>, numRuns: number, offset: number) =>
		numRuns === 0 ? [] : fc.sample(arbitrary, { seed: seed + offset, numRuns });
	return {
		seed,
		cases: [
			...take(identity, counts.identity, 1),
			...take(handler, counts.handler, 2),
			...take(endpoint, counts.endpoint, 3),
			...take(storage, counts.storage, 4),
			...take(journey, counts.journey, 6),
			...take(schedule(sources), counts.schedule, 5)
		]
	};
}
