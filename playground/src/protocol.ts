// What the page asks the sandbox worker, and what it answers. Everything here is plain data.
import type { Delivery, HandlerName } from '#harness/handler/schedules.ts';
import type { Database, Outcome } from '#harness/core/model.ts';
import type { RaceImplementation } from '#harness/race/schedules.ts';
import type { TraceLine } from '#harness/scheduler/trace.ts';

// Play deliveries on both sides: a schedule by name (judged against its expectations), or the learner's own
// Try it deliveries (judged against the solution's handlers).
// skip: sides not to run this time, each with the reason the page gives (a handler that never returned).
export type HandlersAsk = (
	{ kind: 'handlers'; schedule: string } | { kind: 'try-it'; deliveries: Delivery[] }
) & {
	skip?: Partial<Record<HandlerName, string>>;
};
export type RaceAsk = {
	kind: 'race';
	schedule: string;
	implementation: RaceImplementation;
	interleaving: string[];
};
export type Ask = HandlersAsk | RaceAsk;

// The learner's file behind each side and each race implementation.
export const files: Record<HandlerName | RaceImplementation, string> = {
	'create-every-time': 'exercises/01-first-handler/handler.ts',
	'receipt-in-commit': 'exercises/02-same-event/handler.ts',
	atomic: 'exercises/03-the-race/atomic.ts',
	separate: 'exercises/03-the-race/separate.ts'
};

export type Step = { outcome: Outcome; db: Database };

// One side of the playback: the learner's handler, or the solution's when theirs is not written yet.
export type SideRun = {
	name: HandlerName;
	file: string; // the learner's file for this side
	shown: 'yours' | 'solution';
	notWritten: string | null; // the todo's message, when the learner's file is still a stub
	steps: Step[]; // after each delivery, while the handler kept going
	broke: string | null; // the harness's words when the handler threw
	disagreement: string | null; // the harness's judge, in the tests' words; null when it agrees
};
export type HandlersReply = { kind: 'handlers'; sides: SideRun[] };

export type RaceReply = {
	kind: 'race';
	file: string;
	shown: 'yours' | 'solution' | 'given';
	notWritten: string | null;
	trace: TraceLine[];
	answers: string[]; // "A: created #1"
	tickets: string[];
	receipts: string[];
	broke: string | null;
	judged: boolean; // false for an interleaving of the learner's choosing: no schedule expects anything of it
	disagreement: string | null;
};

export type Reply = HandlersReply | RaceReply;

// From the worker: the reply, or, before each delivery or race, what it is about to run (so a handler
// that never returns can be named).
export type FromSandbox =
	| { type: 'working'; id: number; on: string; side?: HandlerName }
	| { type: 'reply'; id: number; reply: Reply }
	| { type: 'error'; id: number; message: string };
export type ToSandbox = { id: number; ask: Ask };
