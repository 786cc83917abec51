// A handler schedule played against 06's POST /webhooks: each delivery sent as a request, with its fault, and
// the answers and rows read back in the handler schedules' words, for their own judge (handler/play.ts).
//
//   const played = await playWebhooks(schedule, code, postgresUrl);
//   judgeHandler(schedule, 'receipt-in-commit', played, 'your webhooks route');   // after played.thrown
//
// The tests (tests.ts) and the grader's observer both play them through here.
import type { HandlerSchedule } from '../handler/schedules.ts';
import type { Database, Outcome } from '../core/model.ts';
import { playEndpoint, type Answer, type EndpointCode, type PlayedEndpoint } from './play.ts';
import type { EndpointSchedule } from './schedules.ts';
import type { PostgresUrl } from './store-on-first-use.ts';

export type PlayedWebhooks = {
	outcomes: Outcome[];
	db: Database;
	thrown: PlayedEndpoint['thrown'];
	stopped: PlayedEndpoint['stopped'];
};

// What a webhook's HTTP answer means, in the handler schedules' words.
export function outcomeOf(answer: Answer | null): Outcome {
	if (!answer) return { kind: 'crashed', ticketId: null };
	const body = (() => {
		try {
			return JSON.parse(answer.body) as { ticketId?: unknown };
		} catch {
			return {};
		}
	})();
	const ticketId = typeof body.ticketId === 'number' ? body.ticketId : null;
	if (answer.status === 201) return { kind: 'created', ticketId };
	if (answer.status === 200) return { kind: 'replayed', ticketId };
	if (answer.status === 422) return { kind: 'conflict', ticketId: null };
	return { kind: `answered ${answer.status}` as Outcome['kind'], ticketId };
}

// The deliveries as requests to POST /webhooks. What each must answer is the handler schedule's to say.
function asRequests(schedule: Omit<HandlerSchedule, 'expect'>): EndpointSchedule {
	return {
		name: schedule.name,
		title: schedule.title,
		story: schedule.story,
		remember: ['everything'],
		steps: schedule.deliveries.map(({ event, fault }) => ({
			do: 'send',
			route: 'webhooks',
			json: event,
			fault,
			expect: { status: null }
		})),
		end: { tickets: [], keys: [], receipts: [] }
	};
}

export async function playWebhooks(
	schedule: Omit<HandlerSchedule, 'expect'>,
	code: EndpointCode,
	postgresUrl: PostgresUrl
): Promise<PlayedWebhooks> {
	const played = await playEndpoint(asRequests(schedule), 'everything', code, postgresUrl);
	return {
		outcomes: played.outcomes.map((outcome) => outcomeOf(outcome.answer)),
		db: { tickets: played.end?.tickets ?? [], receipts: played.end?.receipts ?? [] },
		thrown: played.thrown,
		stopped: played.stopped
	};
}
