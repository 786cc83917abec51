// The HTTP differential check's request sequences: made up from a seed by fast-check, each one played on empty
// tables by the TypeScript endpoint and by Go's (http.ts). The same seed makes the same sequences.
//
//   const sequences = httpSequences(20260301, 24);
//   sequences[0];   // { remember: 'everything', retentionMs: 86400000, steps: [{ do: 'send', … }, …] }
//
// A sequence draws from small pools, so that keys and bodies meet again (replays, 422s, 409s, other clients):
//   keys         plain, quoted ("K" is K), with spaces around, on two lines, a comma, empty, non-ASCII, 255 and
//                256 characters, 128 "é", a DEL, a tab, a control character, a backslash, or missing
//   callers      three clients, or a missing, malformed, doubled or non-ASCII Authorization
//   bodies       the same subject with other spacing, reordered or extra fields, NUL (escaped, in a value or a
//                name), blank, over the subject's limit, over the body's limit, malformed JSON, invalid UTF-8,
//                a BOM, JSON that is not an object, numbers that read alike (1 and 1.0, 0 and -0, 1e400)
//   steps        a send (its fault: none, the ticket's insert fails, the worker dies, the answer is lost), a
//                pair with one key (the first held just before its commit while the second is answered), and a
//                wait that moves the clock to just before, at, or just after the keys' retention; and twins:
//                two bodies that may read as one (0 and -0, 1e400 and null, "\u00e9" and "é") sent with one key, and twins: two
//                bodies that may read as one (0 and -0, 1e400 and null, "\u00e9" and "é") sent with one key
import fc from 'fast-check';
import { defaultRetention, hour, maxBodyBytes, type Remember } from '#harness/endpoint/contract.ts';

export type HttpRequest = {
	query: string;
	// Every header line but Host, Connection, Content-Length and the harness's Workbook-Request, in order.
	headers: [string, string][];
	// The body as text (written as UTF-8), or as base64 for bytes that are not UTF-8.
	body: { text: string } | { base64: string };
};
export type HttpFault = 'none' | 'step-fails' | 'before-commit' | 'after-commit';
export type HttpStep =
	| { do: 'send'; request: HttpRequest; fault: HttpFault }
	| { do: 'pair'; first: HttpRequest; second: HttpRequest }
	| { do: 'wait'; ms: number };
export type HttpSequence = { remember: Remember; retentionMs: number; steps: HttpStep[] };

const keyLines: string[][] = [
	['k-1'],
	['k-2'],
	['K-1'],
	['"k-1"'],
	[' k-2 '],
	['k-1', 'k-1'],
	['k-1, k-2'],
	[''],
	['""'],
	['"'],
	['clé'],
	['😀'],
	['é'.repeat(128)],
	['x'.repeat(255)],
	['x'.repeat(256)],
	['"' + 'x'.repeat(255) + '"'],
	['k\x7f1'],
	['k\x011'],
	['k\t1'],
	['k 1'],
	['k\\1'],
	['!~'],
	[]
];
const keyNames = ['Idempotency-Key', 'idempotency-key', 'IDEMPOTENCY-KEY'];
const callers: string[][] = [
	['Bearer form'],
	['Bearer mobile'],
	['Bearer partner-7'],
	[],
	['Bearer'],
	['bearer form'],
	['Bearer Form'],
	['Bearer  form'],
	['Bearer form', 'Bearer form'],
	['Basic Zm9ybQ=='],
	['Bearer fórm'],
	['Bearer form\x7f']
];
const subject = (text: string) => JSON.stringify({ subject: text });
const bodies: HttpRequest['body'][] = [
	{ text: subject('Cannot sign in') },
	{ text: subject('Cannot sign in') },
	{ text: '{ "subject" : "Cannot sign in" }\n' },
	{ text: subject('Printer on fire') },
	{ text: '{"subject":"Cannot sign in","priority":"high"}' },
	{ text: '{"priority":"high","subject":"Cannot sign in"}' },
	{ text: '{"subject":"Cannot sign in","n":1}' },
	{ text: '{"subject":"Cannot sign in","n":1.0}' },
	{ text: '{"subject":"Cannot sign in","n":0}' },
	{ text: '{"subject":"Cannot sign in","n":-0}' },
	{ text: '{"subject":"Cannot sign in","n":1e400}' },
	{ text: '{"subject":"Cannot sign in","subject":"Printer on fire"}' },
	{ text: '{"subject":"Cannot\\u0000sign in"}' },
	{ text: '{"subject":"Cannot sign in","note\\u0000":"x"}' },
	{ text: '{"subject":"Cannot sign in","tags":["a","\\u0000"]}' },
	{ text: subject('   ') },
	{ text: subject('\u00a0\u2028') },
	{ text: subject('') },
	{ text: '{}' },
	{ text: '[]' },
	{ text: 'null' },
	{ text: '"Cannot sign in"' },
	{ text: '{"subject":' },
	{ text: '' },
	{ text: subject('x'.repeat(200)) },
	{ text: subject('x'.repeat(201)) },
	{ text: subject('é'.repeat(200)) },
	{ text: subject('😀'.repeat(201)) },
	{ text: JSON.stringify({ subject: 'Cannot sign in', pad: 'x'.repeat(maxBodyBytes) }) },
	{ text: '\ufeff' + subject('Cannot sign in') },
	{
		base64: Buffer.concat([
			Buffer.from('{"subject":"Cannot '),
			Buffer.from([0xff]),
			Buffer.from('"}')
		]).toString('base64')
	}
];
const contentTypes = [
	'application/json',
	'application/json',
	'application/json',
	'application/json; charset=utf-8',
	'Application/JSON',
	'text/plain',
	null
];
const queries = ['', '', '', '', '', '?dryRun=true', '?'];
const faults: HttpFault[] = [
	'none',
	'none',
	'none',
	'none',
	'none',
	'step-fails',
	'before-commit',
	'after-commit'
];
const waits = [60_000, hour, defaultRetention - 1, defaultRetention, defaultRetention + 1];

// Mostly well-formed requests, so that keys are saved and met again; the odd ones come one field at a time.
const request = (keys: fc.Arbitrary<string[]>): fc.Arbitrary<HttpRequest> =>
	fc
		.record({
			caller: fc.oneof(
				{ weight: 4, arbitrary: fc.constantFrom(...callers.slice(0, 3)) },
				fc.constantFrom(...callers)
			),
			keyName: fc.constantFrom(...keyNames),
			keys,
			body: fc.oneof(
				{ weight: 2, arbitrary: fc.constantFrom(...bodies.slice(0, 6)) },
				fc.constantFrom(...bodies)
			),
			contentType: fc.constantFrom(...contentTypes),
			query: fc.constantFrom(...queries)
		})
		.map(({ caller, keyName, keys, body, contentType, query }) => ({
			query,
			headers: [
				...(contentType === null ? [] : [['Content-Type', contentType] as [string, string]]),
				...caller.map((line): [string, string] => ['Authorization', line]),
				...keys.map((line): [string, string] => [keyName, line])
			],
			body
		}));
const anyKey = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom(...keyLines.slice(0, 2)) },
	fc.constantFrom(...keyLines)
);
const sendStep = fc
	.record({ request: request(anyKey), fault: fc.constantFrom(...faults) })
	.map(({ request, fault }): HttpStep => ({ do: 'send', request, fault }));
// The second of a pair has the first's caller and key, with a body of its own.
const pairStep = fc
	.tuple(request(anyKey), fc.constantFrom(...bodies))
	.map(([first, body]): HttpStep => ({ do: 'pair', first, second: { ...first, body } }));
const waitStep = fc.constantFrom(...waits).map((ms): HttpStep => ({ do: 'wait', ms }));
// Two bodies that may or may not say the same thing, sent one after the other with one caller and key: a
// replay if the server calls them one body, a 422 if not. Both sides must draw the line in the same place.
const field = (value: string) => `{"subject":"Cannot sign in","n":${value}}`;
const twins: [string, string][] = [
	[field('0'), field('-0')],
	[field('1'), field('1.0')],
	[field('100'), field('1e2')],
	[field('1e400'), field('null')],
	[field('0.1'), field('0.10000000000000001')],
	[field('12345678901234567890'), field('12345678901234567000')],
	[field('"\\u00e9"'), field('"é"')],
	[field('[1,2]'), field('[2,1]')],
	[field('{"a":1,"b":2}'), field('{"b":2,"a":1}')],
	[field('"\\ud83d\\ude00"'), field('"😀"')],
	['{"subject":"Cannot sign in"}', '{"subject":"Cannot sign in","n":null}']
];
const twinSteps = fc
	.tuple(request(fc.constantFrom(...keyLines.slice(0, 2))), fc.constantFrom(...twins))
	.map(([request, [first, second]]): HttpStep[] => [
		{ do: 'send', request: { ...request, body: { text: first } }, fault: 'none' },
		{ do: 'send', request: { ...request, body: { text: second } }, fault: 'none' }
	]);
const steps = fc.oneof(
	{ weight: 6, arbitrary: sendStep.map((step) => [step]) },
	{ weight: 1, arbitrary: pairStep.map((step) => [step]) },
	{ weight: 1, arbitrary: waitStep.map((step) => [step]) },
	{ weight: 1, arbitrary: twinSteps }
);
const sequence = fc.record({
	remember: fc.constantFrom<Remember>('everything', 'successes'),
	retentionMs: fc.constant(defaultRetention),
	steps: fc.array(steps, { minLength: 3, maxLength: 9 }).map((groups) => groups.flat())
});

// A plain request from the form, with one field changed.
const plain = (change: Partial<HttpRequest> = {}): HttpRequest => ({
	query: '',
	headers: [
		['Content-Type', 'application/json'],
		['Authorization', 'Bearer form'],
		['Idempotency-Key', 'k-1']
	],
	body: { text: subject('Cannot sign in') },
	...change
});
const withHeaders = (name: string, lines: string[]): HttpRequest['headers'] => [
	...plain().headers.filter(([n]) => n !== name),
	...lines.map((line): [string, string] => [name, line])
];
const once = (request: HttpRequest): HttpStep => ({ do: 'send', request, fault: 'none' });
const alone = (steps: HttpStep[]): HttpSequence => ({
	remember: 'everything',
	retentionMs: defaultRetention,
	steps
});

// Every pool's every entry at least once, after a first request that saves k-1: every key and caller, and
// every body, content type, query and pair of twins with a key of its own; two held pairs; the retention's
// edge; and each fault under each policy. The same every run, before the seeded sequences.
export function everyKind(): HttpSequence[] {
	const first = once(plain());
	const own = (name: string, i: number) => withHeaders('Idempotency-Key', [`${name}-${i}`]);
	const typed = (type: string | null, i: number): HttpRequest['headers'] => [
		...own('type', i).filter(([name]) => name !== 'Content-Type'),
		...(type === null ? [] : [['Content-Type', type] as [string, string]])
	];
	const pools: HttpStep[][] = [
		[first, ...keyLines.map((lines) => once(plain({ headers: withHeaders('Idempotency-Key', lines) })))],
		[first, ...callers.map((lines) => once(plain({ headers: withHeaders('Authorization', lines) })))],
		[first, ...bodies.map((body, i) => once(plain({ headers: own('body', i), body })))],
		[
			first,
			...contentTypes.map((type, i) => once(plain({ headers: typed(type, i) }))),
			...queries.map((query, i) => once(plain({ headers: own('query', i), query })))
		],
		twins.flatMap(([a, b], i) => [
			once(plain({ headers: own('twin', i), body: { text: a } })),
			once(plain({ headers: own('twin', i), body: { text: b } }))
		]),
		// Held pairs: the same body, and another body, while the first is just before its commit.
		[
			{ do: 'pair', first: plain(), second: plain() },
			{
				do: 'pair',
				first: plain({ headers: own('pair', 1) }),
				second: plain({ headers: own('pair', 1), body: bodies[3]! })
			}
		],
		// The retention's edge: kept a millisecond before it ends, forgotten when it ends.
		[first, { do: 'wait', ms: defaultRetention - 1 }, first, { do: 'wait', ms: 1 }, first, first]
	];
	// Each fault under each policy: what a retry with the same key then gets.
	const faulted = (['step-fails', 'before-commit', 'after-commit'] as const).flatMap(
		(fault, i): HttpStep[] => [
			{ do: 'send', request: plain({ headers: own('fault', i) }), fault },
			once(plain({ headers: own('fault', i) }))
		]
	);
	return [...pools.map(alone), alone(faulted), { ...alone(faulted), remember: 'successes' }];
}

export function httpSequences(seed: number, count: number): HttpSequence[] {
	return fc.sample(sequence, { seed, numRuns: count });
}
