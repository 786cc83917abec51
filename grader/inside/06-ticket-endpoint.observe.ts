// Exercise 06 in the sandbox: the learner's two routes served over HTTP (node:http on the sandbox's own
// loopback) on the run's own PostgreSQL database, reached through the server's Unix socket.
import { playEndpoint, type EndpointCode, type PlayedEndpoint } from '#harness/endpoint/play.ts';
import type { EndpointSchedule } from '#harness/endpoint/schedules.ts';
import { playWebhooks } from '#harness/endpoint/webhooks.ts';
import type { HandlerSchedule } from '#harness/handler/schedules.ts';
import type { Sequence } from '#harness/endpoint/calls.ts';
import {
	exploreCrashPoints,
	sentCrash,
	type RecordedCrash,
	type SentCrash
} from '#harness/endpoint/crash-points.ts';
import { MemoryStore } from '#harness/endpoint/memory-store.ts';
import { exploreOverlaps, overlaps } from '#harness/endpoint/overlaps.ts';
import { playInMemory } from '#harness/endpoint/properties.ts';
import type { RunContext } from '../channel/job.ts';
import { saidError, type Code, type Observers } from './observer.ts';

const routes = (code: Code): EndpointCode => ({ tickets: code.tickets, webhooks: code.webhooks });

function urlOf(run: RunContext): string {
	const db = run.postgres;
	if (!db) throw new Error('this run was given no PostgreSQL database');
	const part = encodeURIComponent;
	return `postgres://${part(db.user)}:${part(db.password)}@${part(db.host)}:${db.port}/${part(db.database)}`;
}

// What the routes threw, as data: the judge outside reads each error's name and message.
const thrownOf = (played: Pick<PlayedEndpoint, 'thrown'>) =>
	played.thrown.map(({ path, request, error }) => ({ path, request, error: saidError(error) }));

export const observers: Observers = {
	endpoint: async (
		{ 'endpoint.ts': code },
		{ schedule, remember }: { schedule: EndpointSchedule; remember: PlayedEndpoint['remember'] },
		run
	) => {
		const played = await playEndpoint(schedule, remember, routes(code), urlOf(run));
		return { ...played, thrown: thrownOf(played) };
	},
	// A handler schedule's deliveries sent to POST /webhooks, answers read in the handler schedules' words.
	webhooks: async ({ 'endpoint.ts': code }, schedule: Omit<HandlerSchedule, 'expect'>, run) => {
		const played = await playWebhooks(schedule, routes(code), urlOf(run));
		return { ...played, thrown: thrownOf(played) };
	},
	// A random sequence on the in-memory store: the answers and the rows, compared outside with the reference's.
	sequence: async ({ 'endpoint.ts': code }, sequence: Sequence) => {
		try {
			return await playInMemory(routes(code), sequence);
		} catch (error) {
			return { thrown: saidError(error) };
		}
	},
	// Two requests with one key (or one event) at every interleaving of their store steps, by its index in
	// overlaps(): the story of the first interleaving that breaks the contract, or null.
	overlap: async ({ 'endpoint.ts': code }, index: number) => {
		const overlap = overlaps()[index];
		if (!overlap) return { problem: `no overlap ${index}` };
		try {
			return { problem: await exploreOverlaps(routes(code), overlap) };
		} catch (error) {
			return { thrown: saidError(error) };
		}
	},
	// Every crash point of every request of a sequence, and its retry, recorded: judged outside (tellCrash).
	// Each as sentCrash makes it: the tables after it only where they differ from those before or after the request,
	// and what it shares with the crash before it (the same request) left out.
	crashes: async ({ 'endpoint.ts': code }, sequence: Sequence) => {
		const crashes: SentCrash[] = [];
		const copy = async (store: unknown) => (store as MemoryStore).copy();
		let earlier: RecordedCrash | undefined;
		const record = (crash: RecordedCrash) => {
			crashes.push(sentCrash(crash, earlier));
			earlier = crash;
		};
		try {
			await exploreCrashPoints(routes(code), sequence, new MemoryStore(), copy, undefined, record);
			return { crashes };
		} catch (error) {
			return { crashes, thrown: saidError(error) };
		}
	}
};
