// The request sequences the explorations play: every endpoint and handler schedule as a sequence, and random
// ones (fast-check) that reuse keys and event ids, reorder fields, add fields, wait around the retention, and
// retry the request before: its fields reversed or its body changed (a field added, removed or changed, deep
// inside too), now, exactly when its retention ends, or after a replay part way there.
//
//   scheduleSequences();                 // Sequence[]: each endpoint schedule under each policy it names, and
//                                        // each handler schedule's deliveries sent to POST /webhooks
//   fc.sample(randomSequences, { seed, numRuns });   // the same generator the properties and the grader use
//
// A schedule's faults are left out (the crash points stop a request at every step, not only at the schedule's),
// but for 'step-fails'; so are bodies that are not JSON, which never reach the store.
import fc from 'fast-check';
import { canonical, rememberPolicies, type Remember } from './contract.ts';
import { handlerSchedules } from '../handler/schedules.ts';
import { endpointSchedules } from './schedules.ts';
import type { Call, Pause, Sequence } from './calls.ts';

export function scheduleSequences(): { name: string; sequence: Sequence }[] {
	const fromEndpoint = endpointSchedules().flatMap((schedule) =>
		schedule.remember.map((remember) => {
			const steps = schedule.steps.flatMap((step): (Call | Pause)[] => {
				if (step.do === 'wait') return [{ do: 'wait', minutes: step.minutes }];
				if (step.do !== 'send' || step.json === undefined || step.contentType !== undefined) return [];
				const call: Call = { do: 'send', route: step.route, json: step.json };
				if (step.key !== undefined) call.key = step.key;
				if (step.fault === 'step-fails') call.stepFails = true;
				return [call];
			});
			const sequence = { remember, retentionHours: schedule.retentionHours ?? 24, steps };
			return { name: `schedule "${schedule.name}" (remember: ${remember})`, sequence };
		})
	);
	const fromHandler = handlerSchedules().map((schedule) => ({
		name: `handler schedule "${schedule.name}" on POST /webhooks`,
		sequence: {
			remember: 'everything' as const,
			retentionHours: 24,
			steps: schedule.deliveries.map(({ event }): Call => ({ do: 'send', route: 'webhooks', json: event }))
		}
	}));
	// A policy matters only where a step fails, a retention only where the clock moves: the same play once.
	const seen = new Set<string>();
	return [...fromEndpoint, ...fromHandler].filter(({ sequence: { remember, retentionHours, steps } }) => {
		const fails = steps.some((step) => step.do === 'send' && step.stepFails);
		const waits = steps.some((step) => step.do === 'wait');
		const said = JSON.stringify([fails ? remember : '', waits ? retentionHours : '', steps]);
		return !seen.has(said) && seen.add(said);
	});
}

const subjects = ['Printer on fire', 'Cannot sign in', 'printer on fire'];
const keys = ['k-1', 'k-2', 'k-3'];
// The fields a ticket's body may have besides its subject, in pairs: each the other's changed value, one deep
// inside an object, so a fingerprint blind to nested fields meets a body it takes for the same.
const extras: Record<string, unknown>[] = [
	{ priority: 'high' },
	{ priority: 'low' },
	{ tags: ['vip'] },
	{ tags: ['vip', 'urgent'] },
	{ customer: { plan: 'pro' } },
	{ customer: { plan: 'free' } },
	{ customer: { plan: 'pro', since: 2019 } },
	{ customer: { plan: 'pro', since: 2024 } }
];

// A ticket's body: a subject, perhaps a field more, the fields in either order.
const ticketBody = fc
	.record({
		subject: fc.constantFrom(...subjects),
		extra: fc.option(fc.constantFrom(...extras), { nil: null }),
		extraFirst: fc.boolean()
	})
	.map(({ subject, extra, extraFirst }) =>
		extra === null ? { subject } : extraFirst ? { ...extra, subject } : { subject, ...extra }
	);
const ticketCall: fc.Arbitrary<Call> = fc
	.record({ key: fc.constantFrom(...keys), json: ticketBody, stepFails: fc.boolean() })
	.map(({ key, json, stepFails }) => ({
		do: 'send',
		route: 'tickets',
		key,
		json,
		...(stepFails ? { stepFails } : {})
	}));

const webhookCall: fc.Arbitrary<Call> = fc
	.record({ eventId: fc.constantFrom('evt-42', 'evt-43'), subject: fc.constantFrom(...subjects) })
	.map(({ eventId, subject }) => ({
		do: 'send',
		route: 'webhooks',
		json: { tenant: 'acme', source: 'helpdesk', eventId, subject }
	}));

// The same request sent again, as a client retries it: its route and key, its body's fields written in the
// other order (still the same body), and no step failing this time.
export function retried(call: Call): Call {
	const { stepFails: _, ...again } = call;
	const json = call.json;
	if (json === null || typeof json !== 'object' || Array.isArray(json)) return again;
	return { ...again, json: Object.fromEntries(Object.entries(json).reverse()) };
}

// The same request with another body, as a client that reuses its key for another request sends it: a field
// more (extras[how]); or, where it has one, that field gone (one in four) or changed to its pair's value, deep
// inside an object too; or, for an event, another subject. The subject of a ticket stays, so only a fingerprint
// over the whole body tells the two apart.
export function changed(call: Call, how: number): Call {
	const { stepFails: _, ...again } = call;
	const json = call.json as Record<string, unknown>;
	if (call.route === 'webhooks') {
		const others = subjects.filter((subject) => subject !== json.subject);
		return { ...again, json: { ...json, subject: others[how % others.length] } };
	}
	const fields = Object.entries(json);
	const extra = fields.findIndex(([name]) => name !== 'subject');
	if (extra < 0) return { ...again, json: { ...json, ...extras[how % extras.length] } };
	if (how % 4 === 0) return { ...again, json: Object.fromEntries(fields.toSpliced(extra, 1)) };
	const [name, value] = fields[extra]!;
	const pair = extras.findIndex((e) => name in e && canonical(e[name]) === canonical(value));
	const other = Object.entries(extras[pair ^ 1]!)[0]!;
	return { ...again, json: Object.fromEntries(fields.toSpliced(extra, 1, other)) };
}

// A wait lands just before, at, or after the retention (in hours), or is short.
const pause = (retentionHours: number): fc.Arbitrary<Pause> =>
	fc
		.constantFrom(5, retentionHours * 60 - 1, retentionHours * 60, retentionHours * 60 + 1, 90)
		.map((minutes) => ({ do: 'wait', minutes }));

type Settings = Pick<Sequence, 'remember' | 'retentionHours'>;
export const sequenceSettings = fc.record({
	remember: fc.constantFrom(...rememberPolicies),
	retentionHours: fc.integer({ min: 1, max: 48 })
});

// One step of a sequence, its waits sized by the retention.
export const sequenceStep = (retentionHours: number) =>
	fc.oneof(
		{ weight: 5, arbitrary: ticketCall },
		{ weight: 2, arbitrary: webhookCall },
		{ weight: 2, arbitrary: pause(retentionHours) }
	);

// A retry of the request before it: its fields in the other order (a body the fingerprint must take for the
// same), or, with change, another body under the same key (changed). Now; or exactly when the retention of what
// it retries ends (its key's, or its event's receipt's, counted from the first request under it since the last
// expiry that the server remembers); or twice: part way there the same body (a replay, which must not renew
// the retention) and the retry, then the retry again at that end. An expiry is a boundary, and a wait drawn at
// random rarely lands on it. fails: a ticket's retry fails its insert too, as the first may have (a request
// new again after an expiry meets the failure path with the expired key still in the table).
export type Again = {
	do: 'again';
	at: 'now' | 'at the retention' | 'twice';
	change: number | null;
	fails: boolean;
};

export const againDraw: fc.Arbitrary<Again> = fc.record({
	do: fc.constant('again' as const),
	at: fc.oneof(fc.constantFrom('now' as const, 'at the retention' as const), fc.constant('twice' as const)),
	change: fc.oneof(fc.constant(null), fc.nat(7)),
	fails: fc.boolean()
});

// One draw: a step, or (one in two) a retry of the request before it.
export const sequenceDraw = (retentionHours: number): fc.Arbitrary<Call | Pause | Again> =>
	fc.oneof({ weight: 1, arbitrary: sequenceStep(retentionHours) }, { weight: 1, arbitrary: againDraw });

// What a request is remembered under: its route's key, or its event.
function rememberedAs(call: Call): string {
	if (call.route === 'tickets') return `key ${call.key}`;
	const { tenant, source, eventId } = call.json as Record<string, unknown>;
	return `event ${JSON.stringify([tenant, source, eventId])}`;
}

// Whether the server keeps what this request is remembered under: not a failed insert, unless it remembers
// everything.
const remembered = (call: Call, remember: Remember) => !call.stepFails || remember === 'everything';

// The steps a retry adds after the steps so far: the wait to the end of that retention (when it asks for one
// and that end is still ahead; for twice, half of it first, then the same body again and the retry), then the
// retry. None when no request was sent yet.
export function again(
	steps: readonly (Call | Pause)[],
	{ remember, retentionHours }: Settings,
	{ at, change, fails }: Again
): (Call | Pause)[] {
	const last = steps.findLast((step) => step.do === 'send');
	if (!last) return [];
	const retention = retentionHours * 60;
	let now = 0;
	let since: number | null = null;
	for (const step of steps)
		if (step.do === 'wait') now += step.minutes;
		else if (
			rememberedAs(step) === rememberedAs(last) &&
			remembered(step, remember) &&
			(since === null || now - since >= retention)
		)
			since = now;
	// Nothing under it is remembered yet (a failed insert the server forgets): no retention to wait for.
	const left = since === null ? 0 : since + retention - now;
	const retry = {
		...(change === null ? retried(last) : changed(last, change)),
		...(fails && last.route === 'tickets' ? { stepFails: true } : {})
	};
	const wait = (minutes: number): Pause[] => (minutes > 0 ? [{ do: 'wait', minutes }] : []);
	if (at === 'now') return [retry];
	if (at === 'twice' && left > 1) {
		const half = Math.floor(left / 2);
		const replay = retried(last);
		const before = change === null ? [replay] : [replay, retry];
		return [...wait(half), ...before, ...wait(left - half), retry];
	}
	return [...wait(left), retry];
}

// A first step, then two to seven draws, each retry played out as the steps it adds.
export const randomSequences: fc.Arbitrary<Sequence> = sequenceSettings.chain(
	({ remember, retentionHours }) =>
		fc
			.tuple(
				sequenceStep(retentionHours),
				fc.array(sequenceDraw(retentionHours), { minLength: 2, maxLength: 7 })
			)
			.map(([first, draws]) => {
				const steps: (Call | Pause)[] = [first];
				for (const draw of draws)
					if (draw.do === 'again') steps.push(...again(steps, { remember, retentionHours }, draw));
					else steps.push(draw);
				return { remember, retentionHours, steps };
			})
);
