// The tests exercise 06's file calls: every endpoint schedule under each policy it names, and the handler
// schedules sent to POST /webhooks over HTTP, all on one PostgreSQL per test run (postgres-on-demand.ts), asked
// for when a route first uses its store (store-on-first-use.ts): stubs and 04's unwritten client need none.
import { describe, it } from 'vitest';
import { clientJourneys } from '../client/journeys.ts';
import { judgeJourney } from '../client/judge.ts';
import type { KeyStoreCode } from '../client/play.ts';
import { rememberPolicies } from './contract.ts';
import { playJourneyOverHttp, triedAgainstEverything } from './journeys.ts';
import { handlerSchedules } from '../handler/schedules.ts';
import { judgeHandler } from '../handler/play.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { describeDelivery } from '../core/words.ts';
import { plays } from '../core/plays.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { playEndpoint, type EndpointCode } from './play.ts';
import { judgeEndpoint } from './judge.ts';
import { postgresUrl } from './postgres-on-demand.ts';
import { endpointSchedules } from './schedules.ts';
import { playWebhooks } from './webhooks.ts';

const limit = { timeout: 60_000 };

// A stub that throws while its route is being built names the function to write, and nothing else.
function notWritten(error: unknown, where: string): never {
	if (error instanceof NotWrittenYet) throw new ScheduleMismatch(`${error.message}\n  (stopped at ${where})`);
	throw error;
}

export function playEndpointSchedules(code: EndpointCode): void {
	describe('the endpoint schedules, over HTTP on PostgreSQL', () => {
		for (const schedule of endpointSchedules())
			for (const remember of schedule.remember)
				it(
					`${schedule.title} (remember: ${remember})`,
					{ ...plays(schedule, remember), ...limit },
					async () => {
						const played = await playEndpoint(schedule, remember, code, postgresUrl).catch((error) =>
							notWritten(error, `schedule "${schedule.name}"`)
						);
						const problem = judgeEndpoint(schedule, played);
						if (problem) throw new ScheduleMismatch(problem);
					}
				);
	});
}

export function playWebhookSchedules(code: EndpointCode): void {
	describe('POST /webhooks: the handler schedules, over HTTP on PostgreSQL', () => {
		for (const schedule of handlerSchedules())
			it(schedule.title, { ...plays(schedule, 'receipt-in-commit'), ...limit }, async () => {
				const played = await playWebhooks(schedule, code, postgresUrl).catch((error) =>
					notWritten(error, `schedule "${schedule.name}"`)
				);
				const thrown = played.thrown[0];
				const where = `${describeDelivery(schedule, (thrown?.request ?? 1) - 1)} of schedule "${schedule.name}"`;
				if (thrown?.error instanceof NotWrittenYet) notWritten(thrown.error, where);
				if (thrown)
					throw new ScheduleMismatch(`Your webhooks route threw at ${where}: ${String(thrown.error)}`);
				const problem = judgeHandler(schedule, 'receipt-in-commit', played, 'your webhooks route');
				if (problem) throw new ScheduleMismatch(problem);
			});
	});
}

// 04's journeys with real fetch() against the endpoint, under each policy. Against a server that remembers
// only successes they go as they go against 04's fake; against one that remembers everything, Try again after
// a 500 gets the same 500 back.
export function playJourneysOverHttp(client: KeyStoreCode, code: EndpointCode): void {
	describe("04's client journeys, end to end: real fetch() through a lossy proxy to your endpoint", () => {
		const journeys = clientJourneys();
		for (const remember of rememberPolicies)
			for (const journey of journeys) {
				// Only a journey where the server fails goes differently when the server remembers everything.
				if (remember === 'everything' && !journey.steps.some((step) => step.fate === 'server-fails'))
					continue;
				const expected = remember === 'everything' ? triedAgainstEverything(journey) : journey;
				it(`${journey.title} (remember: ${remember})`, limit, async () => {
					const played = await playJourneyOverHttp(journey, client, code, remember, postgresUrl).catch(
						(error) => notWritten(error, `journey "${journey.name}"`)
					);
					const thrown = played.thrown[0];
					if (thrown?.error instanceof NotWrittenYet)
						notWritten(thrown.error, `request ${thrown.request} of journey "${journey.name}"`);
					if (thrown)
						throw new ScheduleMismatch(
							`Journey "${journey.name}": your endpoint threw: ${String(thrown.error)}`
						);
					const problem = judgeJourney(expected, played);
					if (problem) throw new ScheduleMismatch(`remember: "${remember}". ${problem}`);
				});
			}
	});
}
