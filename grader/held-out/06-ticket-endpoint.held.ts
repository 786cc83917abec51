// Exercise 06's held-out checks: random requests to both routes, sent to the learner's endpoint and to the
// reference's, each on an emptied store of the same PostgreSQL; every answer and the end state must agree.
import fc from 'fast-check';
import { describe, vi } from 'vitest';
import { canonical } from '#shared/endpoint/contract.ts';
import { saidAnswer } from '#shared/endpoint/judge.ts';
import { playEndpoint, type EndpointCode, type PlayedEndpoint } from '#shared/endpoint/play.ts';
import { postgresUrl } from '#shared/endpoint/postgres-on-demand.ts';
import type { EndpointSchedule, Step } from '#shared/endpoint/schedules.ts';
import { heading } from '#shared/manifest.ts';
import { saidReceipt, saidTicket } from '#shared/words.ts';
import { tickets, webhooks } from '../../exercises/06-ticket-endpoint/endpoint.ts';
import * as reference from '../../solutions/06-ticket-endpoint/endpoint.ts';
import { heldOutChecks } from './seed.ts';

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

const cases = fc.record({
	remember: fc.constantFrom('everything' as const, 'successes' as const),
	steps: fc.array(fc.oneof({ weight: 4, arbitrary: ticketRequest }, webhook, wait), {
		minLength: 1,
		maxLength: 6
	})
});

function said(step: Step): string {
	if (step.do === 'wait') return `wait ${step.minutes} minutes`;
	if (step.do !== 'send') return step.do;
	const fault = step.fault === 'none' ? '' : `, ${step.fault}`;
	const to = step.route === 'tickets' ? `POST /api/tickets key "${step.key}"` : 'POST /webhooks';
	return `${to} ${canonical(step.json)}${fault}`;
}

function sameAnswer(a: PlayedEndpoint['outcomes'][number], b: PlayedEndpoint['outcomes'][number]): boolean {
	const [x, y] = [a.answer, b.answer];
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

function endLines(played: PlayedEndpoint): string[] {
	const end = played.end ?? { tickets: [], keys: [], receipts: [] };
	return [
		...end.tickets.map(saidTicket),
		...end.keys.map((key) => `key "${key.key}" → ${key.status}`),
		...end.receipts.map(saidReceipt)
	];
}

const code: EndpointCode = { tickets, webhooks };

// Each case plays two endpoints over HTTP on PostgreSQL: tens of milliseconds, not microseconds.
vi.setConfig({ testTimeout: 120_000 });

describe(heading('06'), () => {
	heldOutChecks('endpoint requests', cases, async ({ remember, steps }) => {
		const schedule: EndpointSchedule = {
			name: 'held-out',
			title: 'held-out requests',
			story: 'random requests',
			remember: [remember],
			steps,
			end: { tickets: [], keys: [], receipts: [] }
		};
		const url = await postgresUrl();
		const yours = await playEndpoint(schedule, remember, code, url);
		const theirs = await playEndpoint(schedule, remember, reference, url);
		const thrown = yours.thrown[0];
		const sends = steps.filter((step) => step.do === 'send');
		const lines = sends.map((step, i) => {
			const [a, b] = [yours.outcomes[i]!, theirs.outcomes[i]!];
			const mark = sameAnswer(a, b) ? ' ' : '≠';
			return `${mark} request ${i + 1}: ${said(step)}\n    expected ${saidAnswer(b.answer)}\n    yours    ${saidAnswer(a.answer)}`;
		});
		const differs = lines.some((line) => line.startsWith('≠'));
		const [mine, ref] = [endLines(yours), endLines(theirs)];
		const endDiffers = mine.join('\n') !== ref.join('\n');
		if (!thrown && !differs && !endDiffers) return null;
		const story = steps.map((step, i) => `  ${i + 1}. ${said(step)}`).join('\n');
		const why = thrown ? `your endpoint threw: ${String(thrown.error)}\n` : '';
		return `remember: "${remember}", steps:\n${story}\n${why}${lines.join('\n')}\nat the end, expected:\n  ${ref.join('\n  ') || '(nothing)'}\nyours:\n  ${mine.join('\n  ') || '(nothing)'}`;
	});
});
