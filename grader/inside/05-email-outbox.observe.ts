// Exercise 05 in the sandbox: emailKey on given arguments, and the learner's outbox and relay played on the
// outbox schedules, on rounds of deliveries, relays, outages and crashes the grader picked, and the relay alone
// against a provider failing call by call.
import { playRounds, type Round } from '#harness/outbox/rounds.ts';
import { playOutbox, type Sender } from '#harness/outbox/play.ts';
import { playRelayRun, type CallFault } from '#harness/outbox/relay-faults.ts';
import type { Code, Observers } from './observer.ts';

const outboxRelay = (code: Code): Sender => ({
	name: 'outbox-relay',
	handle: (db, event) => code.handleWithOutbox(db, event),
	relay: code.relay
});

export const observers: Observers = {
	'email-keys': ({ 'outbox.ts': code }, { keys }: { keys: [string, number, string][] }) =>
		keys.map(([tenant, id, kind]) => code.emailKey(tenant, id, kind)),
	schedule: ({ 'outbox.ts': code }, schedule) => playOutbox(schedule, outboxRelay(code)),
	rounds: ({ 'outbox.ts': code }, plan: Round[]) => playRounds(outboxRelay(code), plan),
	'relay-faults': ({ 'outbox.ts': code }, plan: CallFault[]) => playRelayRun(code.relay, plan)
};
