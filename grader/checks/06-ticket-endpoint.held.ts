// Exercise 06's checks: every endpoint schedule under each policy it names, every handler schedule sent
// to POST /webhooks, and random requests to both routes, judged against what the reference answered to the
// same requests on a database of its own. Every run of 06 gets a PostgreSQL database (grader/sandbox/postgres.ts):
// the manifest says "postgres": "only".
import fc from 'fast-check';
import { canonical } from '#harness/endpoint/contract.ts';
import { judgeEndpoint, saidAnswer } from '#harness/endpoint/judge.ts';
import type { PlayedEndpoint } from '#harness/endpoint/play.ts';
import { endpointSchedules, type EndpointSchedule, type Step } from '#harness/endpoint/schedules.ts';
import { handlerSchedules, type HandlerSchedule } from '#harness/handler/schedules.ts';
import type { Outcome } from '#harness/core/model.ts';
import { judgeHandler } from '#harness/handler/play.ts';
import { describeDelivery, saidReceipt, saidTicket } from '#harness/core/words.ts';
import {
	saidAnswer as saidCall,
	saidSequence,
	type Answer as CallAnswer,
	type Sequence
} from '#harness/endpoint/calls.ts';
import {
	receivedCrash,
	tellCrash,
	type RecordedCrash,
	type SentCrash
} from '#harness/endpoint/crash-points.ts';
import { overlaps } from '#harness/endpoint/overlaps.ts';
import { randomSequences } from '#harness/endpoint/sequences.ts';
import type { SaidError } from '../channel/observations.ts';
import { heldOut, revivedError, type Check, type Probe, type ProbeSettings } from '../trusted/probe.ts';

type SaidThrown = { path: string; request: number | null; error: SaidError };
type ObservedEndpoint = Omit<PlayedEndpoint, 'thrown'> & { thrown: SaidThrown[] };
const played = (observed: ObservedEndpoint): PlayedEndpoint => ({
	...observed,
	thrown: observed.thrown.map((thrown) => ({ ...thrown, error: revivedError(thrown.error) }))
});

type EndpointCase = { schedule: EndpointSchedule; remember: PlayedEndpoint['remember'] };
const givenEndpoint = (): Check[] =>
	endpointSchedules().flatMap((schedule) =>
		schedule.remember.map((remember) => ({
			name: `the endpoint schedules › ${schedule.title} (remember: ${remember})`,
			heldOut: false,
			observer: 'endpoint',
			cases: [{ schedule, remember }],
			judge: (input: EndpointCase, observed: ObservedEndpoint) =>
				judgeEndpoint(input.schedule, played(observed))
		}))
	);

type ObservedWebhooks = {
	outcomes: Outcome[];
	db: { tickets: never[]; receipts: never[] };
	thrown: SaidThrown[];
	stopped: PlayedEndpoint['stopped'];
};
const givenWebhooks = (): Check[] =>
	handlerSchedules().map((schedule) => ({
		name: `POST /webhooks › ${schedule.title}`,
		heldOut: false,
		observer: 'webhooks',
		cases: [schedule],
		judge: (input: HandlerSchedule, observed: ObservedWebhooks) => {
			const thrown = observed.thrown[0];
			const where = `${describeDelivery(input, (thrown?.request ?? 1) - 1)} of schedule "${input.name}"`;
			if (thrown?.error.name === 'NotWrittenYet') return `${thrown.error.message}\n  (stopped at ${where})`;
			if (thrown)
				return `Your webhooks route threw at ${where}: ${thrown.error.name}: ${thrown.error.message}`;
			if (observed.stopped) return `Schedule "${input.name}" stopped: ${observed.stopped.why}`;
			return judgeHandler(input, 'receipt-in-commit', observed, 'your webhooks route');
		}
	}));

// Random requests: the same shapes as the schedules, mostly healthy, now and then a fault.
const mostlyFine = <T extends string>(...rare: T[]) =>
	fc.oneof({ weight: 3, arbitrary: fc.constant('none' as const) }, fc.constantFrom(...rare));
const ticketRequest: fc.Arbitrary<Step> = fc
	.record({
		key: fc.constantFrom('k-1', 'k-2', 'k-3'),
		subject: fc.constantFrom('Cannot sign in', 'Printer on fire', ''),
		fault: mostlyFine('after-commit', 'before-commit', 'step-fails')
	})
	.map(({ key, subject, fault }) => ({
		do: 'send',
		route: 'tickets',
		key,
		json: { subject },
		fault,
		expect: { status: null }
	}));
const webhook: fc.Arbitrary<Step> = fc
	.record({
		eventId: fc.constantFrom('evt-1', 'evt-42'),
		subject: fc.constantFrom('Cannot sign in', 'Printer on fire'),
		fault: mostlyFine('after-commit', 'before-commit')
	})
	.map(({ eventId, subject, fault }) => ({
		do: 'send',
		route: 'webhooks',
		json: { tenant: 'acme', source: 'helpdesk', eventId, subject },
		fault,
		expect: { status: null }
	}));
// Clock moves on both sides of the 24-hour retention.
const wait: fc.Arbitrary<Step> = fc.constantFrom(60, 1439, 1441).map((minutes) => ({ do: 'wait', minutes }));
const randomCase: fc.Arbitrary<EndpointCase> = fc
	.record({
		remember: fc.constantFrom('everything' as const, 'successes' as const),
		steps: fc.array(fc.oneof({ weight: 4, arbitrary: ticketRequest }, webhook, wait), {
			minLength: 1,
			maxLength: 6
		})
	})
	.map(({ remember, steps }) => ({
		remember,
		schedule: {
			name: 'held-out',
			title: 'random requests',
			story: 'Requests the shipped schedules do not have. Expected is what the reference solution answered.',
			remember: [remember],
			steps,
			end: { tickets: [], keys: [], receipts: [] }
		}
	}));

function said(step: Step): string {
	if (step.do === 'wait') return `wait ${step.minutes} minutes`;
	if (step.do !== 'send') return step.do;
	const fault = step.fault === 'none' ? '' : `, ${step.fault}`;
	const to = step.route === 'tickets' ? `POST /api/tickets key "${step.key}"` : 'POST /webhooks';
	return `${to} ${canonical(step.json)}${fault}`;
}

type Answer = PlayedEndpoint['outcomes'][number]['answer'];
// Two answers agree on status, on being a replay, and (for a success) on the body, whatever its key order.
function sameAnswer(x: Answer, y: Answer): boolean {
	if (!x || !y) return x === y;
	const replayed = (headers: Record<string, string>) => headers['idempotent-replayed'] === 'true';
	const body = (text: string) => {
		try {
			return canonical(JSON.parse(text));
		} catch {
			return text;
		}
	};
	return (
		x.status === y.status &&
		replayed(x.headers) === replayed(y.headers) &&
		(x.status >= 400 || body(x.body) === body(y.body))
	);
}

function endLines(observed: ObservedEndpoint): string[] {
	const end = observed.end ?? { tickets: [], keys: [], receipts: [] };
	return [
		...end.tickets.map(saidTicket),
		...end.keys.map((key) => `key "${key.key}" → ${key.status}`),
		...end.receipts.map(saidReceipt)
	];
}

export function judgeRandom(input: EndpointCase, yours: ObservedEndpoint, theirs: ObservedEndpoint) {
	const { remember, schedule } = input;
	const sends = schedule.steps.filter((step) => step.do === 'send');
	const lines = sends.map((step, i) => {
		const [a, b] = [yours.outcomes[i]?.answer ?? null, theirs.outcomes[i]?.answer ?? null];
		const mark = sameAnswer(a, b) ? ' ' : '≠';
		return `${mark} request ${i + 1}: ${said(step)}\n    expected ${saidAnswer(b)}\n    yours    ${saidAnswer(a)}`;
	});
	const thrown = yours.thrown[0];
	const differs = lines.some((line) => line.startsWith('≠'));
	const [mine, ref] = [endLines(yours), endLines(theirs)];
	const stopped = yours.stopped && !theirs.stopped ? yours.stopped.why : null;
	if (!thrown && !stopped && !differs && mine.join('\n') === ref.join('\n')) return null;
	if (thrown?.error.name === 'NotWrittenYet') return thrown.error.message;
	const story = schedule.steps.map((step, i) => `  ${i + 1}. ${said(step)}`).join('\n');
	const why = thrown
		? `your endpoint threw: ${thrown.error.name}: ${thrown.error.message}\n`
		: stopped
			? `the requests stopped: ${stopped}\n`
			: '';
	return `remember: "${remember}", steps:\n${story}\n${why}${lines.join('\n')}\nat the end, expected:\n  ${ref.join('\n  ') || '(nothing)'}\nyours:\n  ${mine.join('\n  ') || '(nothing)'}`;
}

// The learner loop's generators (harness/endpoint/sequences.ts), with more runs: every crash point of each
// sequence, judged here from what was recorded inside; and the answers and rows, against the reference's.
// As sentCrash sends them (Go's observer: with every table), read back by receivedCrash, each after the one before.
type Crashes = { crashes: SentCrash[]; thrown?: SaidError };
export function judgeCrashes(sequence: Sequence, yours: Crashes): string | null {
	if (yours.thrown?.name === 'NotWrittenYet') return yours.thrown.message;
	if (yours.thrown) return `your endpoint threw: ${yours.thrown.name}: ${yours.thrown.message}`;
	// One crash at a time: the answer a held-out message is made from may be cut short after the first broken one.
	let earlier: RecordedCrash | undefined;
	for (const crash of yours.crashes) {
		earlier = receivedCrash(crash, earlier);
		const problem = tellCrash(sequence, earlier);
		if (problem) return problem;
	}
	return null;
}

const jsonOf = (text: string) => {
	try {
		return canonical(JSON.parse(text));
	} catch {
		return text;
	}
};
type InMemory = { answers?: CallAnswer[]; end?: unknown; thrown?: SaidError };
export function judgeSequence(sequence: Sequence, yours: InMemory, theirs: InMemory): string | null {
	if (yours.thrown?.name === 'NotWrittenYet') return yours.thrown.message;
	if (yours.thrown)
		return `your endpoint threw: ${yours.thrown.name}: ${yours.thrown.message}\n${saidSequence(sequence)}`;
	const lines = (theirs.answers ?? []).map((expected, i) => {
		const got = yours.answers?.[i] ?? null;
		const same =
			got !== null &&
			got.status === expected.status &&
			got.replayed === expected.replayed &&
			(expected.status >= 400 || jsonOf(got.body) === jsonOf(expected.body));
		return `${same ? ' ' : '≠'} request ${i + 1}: expected ${saidCall(expected)}\n    yours    ${saidCall(got)}`;
	});
	if (!lines.some((line) => line.startsWith('≠')) && canonical(yours.end) === canonical(theirs.end))
		return null;
	return `${saidSequence(sequence)}\n${lines.join('\n')}\nat the end, expected ${canonical(theirs.end)}\nyours ${canonical(yours.end)}`;
}

// The overlaps the tests explore, each a given check: two requests with one key, or two deliveries of one
// event, at every interleaving. The exploration runs in the sandbox and says the first broken interleaving.
type Explored = { problem?: string | null; thrown?: SaidError };
const givenOverlaps = (): Check[] =>
	overlaps().map((overlap, index) => ({
		name: `every overlap › ${overlap.name}`,
		heldOut: false,
		observer: 'overlap',
		cases: [index],
		judge: (_input: number, observed: Explored) =>
			observed.thrown
				? `${observed.thrown.name === 'NotWrittenYet' ? '' : 'your endpoint threw: '}${observed.thrown.message}`
				: (observed.problem ?? null)
	}));

// Sequences at the edges of the retention, compared with the reference: a key or a receipt used again one
// minute before, exactly at, and one minute after it is due to expire, with the same body and another.
function retentionEdges(): Sequence[] {
	const body = { subject: 'Printer on fire' };
	const event = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' };
	return [-1, 0, 1].flatMap((past) =>
		(['successes', 'everything'] as const).flatMap((remember) =>
			[body, { subject: 'Printer still on fire' }].map((again) => ({
				remember,
				retentionHours: 2,
				steps: [
					{ do: 'send' as const, route: 'tickets' as const, key: 'k-1', json: body },
					{ do: 'send' as const, route: 'webhooks' as const, json: event },
					{ do: 'wait' as const, minutes: 120 + past },
					{ do: 'send' as const, route: 'tickets' as const, key: 'k-1', json: again },
					{ do: 'send' as const, route: 'webhooks' as const, json: { ...event, subject: again.subject } }
				]
			}))
		)
	);
}

// Random requests over HTTP on PostgreSQL get a sample: a quarter of the runs (at least one a check), since each
// is a play on the run's cluster, most of a run's cost. The same kinds of request are played in full in memory
// above, on every run: each crash point (a worker dying before a commit, an answer lost after it) with its retry,
// and the random sequences against the reference.
export const httpShare = 4;
const share = (settings: ProbeSettings, of: number): ProbeSettings => ({
	...settings,
	runs: Math.max(1, Math.ceil(settings.runs / of))
});
const overHttp = (settings: ProbeSettings): ProbeSettings => share(settings, httpShare);
// Every crash point of a third of the sequences (9 a check with the defaults, about 45 requests: as many as the 13
// sequences of shorter draws this count was first set for): a crash-point mistake is in how a request commits, and
// shows at the first request that makes a ticket or a receipt. At seeds 1 to 10, every named and reserve mistake
// that fails a crash-point check fails each of the four by its third sequence (tools/bench/endpoint-crash-draws.ts);
// the answers and rows of every sequence are still judged against the reference, below.
export const crashShare = 3;

// The crash points draw from seed, seed + 1, … (one seed a check); the sequences against the reference from the
// seeds after those: each its own sequences, so the same cost holds out more.
const afterCrashPoints = (settings: ProbeSettings): ProbeSettings => ({
	...settings,
	seed: settings.seed + settings.checks
});

export const probe: Probe = (settings) => [
	...givenOverlaps(),
	{
		name: 'the retention, at its edges, against the reference',
		heldOut: false,
		observer: 'sequence',
		cases: retentionEdges(),
		judge: judgeSequence
	},
	...heldOut(share(settings, crashShare), 'crash points', randomSequences, () => ({
		observer: 'crashes',
		judge: (input: Sequence, observed: Crashes) => judgeCrashes(input, observed)
	})),
	...heldOut(afterCrashPoints(settings), 'sequences against the reference', randomSequences, () => ({
		observer: 'sequence',
		judge: judgeSequence
	})),
	...givenEndpoint(),
	...givenWebhooks(),
	...heldOut(overHttp(settings), 'endpoint requests', randomCase, () => ({
		observer: 'endpoint',
		judge: judgeRandom
	}))
];
