// The sandbox's work: play deliveries and races on the learner's handlers (or the solution's, when theirs is
// still a stub), and judge them with the harness's own judges, so the page says what the tests would say.
// Runs inside the sandbox worker (sandbox.worker.ts), never on the page's own thread.
import {
	handlerNames,
	handlerSchedules,
	type Delivery,
	type HandlerName,
	type HandlerSchedule
} from '#harness/handler/schedules.ts';
import type { Handler, Outcome } from '#harness/core/model.ts';
import { judgeHandler, playHandler } from '#harness/handler/play.ts';
import { answerOf, judgeRace, playRace, saidAnswer, stubIn, type RaceHandler } from '#harness/race/play.ts';
import { raceSchedules, type RaceImplementation } from '#harness/race/schedules.ts';
import { inTurn } from '#harness/scheduler/scheduler.ts';
import { describeDelivery, saidTicket } from '#harness/core/words.ts';
import { saidReceiptShort } from './lesson-words.ts';
import {
	files,
	type HandlersAsk,
	type HandlersReply,
	type RaceAsk,
	type RaceReply,
	type SideRun,
	type Step
} from './protocol.ts';

type Tell = (on: string, side?: HandlerName) => void;
type Maker = () => Handler;
// A learner's file as imported, or why it could not be.
type Loaded<T> = { value: T } | { error: string };

async function load<T>(importing: () => Promise<T>): Promise<Loaded<T>> {
	try {
		return { value: await importing() };
	} catch (error) {
		return { error: error instanceof Error ? error.message : String(error) };
	}
}

// The same paths the tests import: exercises/ for the learner, solutions/ for the fallback. Each is loaded on
// its own, so a file that does not compile spoils only its own side.
const yours = {
	'create-every-time': load(async (): Promise<Maker> => {
		const { TicketHandler } = await import('../../exercises/01-first-handler/handler.ts');
		return () => new TicketHandler();
	}),
	'receipt-in-commit': load(async (): Promise<Maker> => {
		const { ReceiptHandler } = await import('../../exercises/02-same-event/handler.ts');
		return () => new ReceiptHandler();
	}),
	atomic: load(async (): Promise<RaceHandler> => {
		return (await import('../../exercises/03-the-race/atomic.ts')).handleAtomically;
	})
};
const solution = {
	'create-every-time': import('../../solutions/01-first-handler/handler.ts').then(
		({ TicketHandler }): Maker =>
			() =>
				new TicketHandler()
	),
	'receipt-in-commit': import('../../solutions/02-same-event/handler.ts').then(
		({ ReceiptHandler }): Maker =>
			() =>
				new ReceiptHandler()
	),
	atomic: import('../../solutions/03-the-race/atomic.ts').then(
		(module): RaceHandler => module.handleAtomically
	)
};
const given = import('../../exercises/03-the-race/separate.ts').then(
	(module): RaceHandler => module.handleSeparately
);

async function makers(name: HandlerName): Promise<{ yours: Maker | string; solution: Maker }> {
	const mine = await yours[name];
	return { yours: 'error' in mine ? mine.error : mine.value, solution: await solution[name] };
}

// "TicketHandler.handle is not written yet. …" when a stub stopped the run; the todo's words come first.
const stubMessage = (error: unknown): string | null => {
	const message = error instanceof Error ? error.message : '';
	return /^\S+ is not written yet\./.test(message) ? message : null;
};

// Delivery by delivery: each step plays the deliveries so far on a new handler (playHandler, the tests'
// player), so the state after every delivery is the handler's own snapshot.
function playSteps(schedule: HandlerSchedule, make: Maker, tell: Tell): { steps: Step[]; error: unknown } {
	const steps: Step[] = [];
	for (let count = 1; count <= schedule.deliveries.length; count++) {
		tell(`${describeDelivery(schedule, count - 1)} of "${schedule.title}"`);
		try {
			const played = playHandler({ ...schedule, deliveries: schedule.deliveries.slice(0, count) }, make());
			steps.push({ outcome: played.outcomes[count - 1]!, db: played.db });
		} catch (error) {
			return { steps, error };
		}
	}
	return { steps, error: null };
}

async function playSide(schedule: HandlerSchedule, name: HandlerName, tell: Tell): Promise<SideRun> {
	const { yours: mine, solution: theirs } = await makers(name);
	const side: SideRun = {
		name,
		file: files[name],
		shown: 'yours',
		notWritten: null,
		steps: [],
		broke: null,
		disagreement: null
	};
	if (typeof mine === 'string') {
		side.broke = `${files[name]} could not be loaded: ${mine}`;
		return side;
	}
	const tellSide = (on: string) => tell(`${files[name]}, ${on}`, name);
	const played = playSteps(schedule, mine, tellSide);
	side.notWritten = played.error ? stubMessage(played.error) : null;
	if (side.notWritten) {
		side.shown = 'solution';
		side.steps = playSteps(schedule, theirs, tellSide).steps;
		return side;
	}
	side.steps = played.steps;
	if (played.error) {
		side.broke = played.error instanceof Error ? played.error.message : String(played.error);
		return side;
	}
	const last = side.steps.at(-1);
	const outcomes = side.steps.map((step) => step.outcome);
	side.disagreement = judgeHandler(schedule, name, {
		outcomes,
		db: last?.db ?? { tickets: [], receipts: [] }
	});
	return side;
}

// The learner's Try it deliveries as a schedule of their own, whose expectations are what the solution's
// handlers do with them: judgeHandler then says where the learner's handler differs, in the tests' words.
async function tryItSchedule(deliveries: Delivery[]): Promise<HandlerSchedule> {
	const count = deliveries.length;
	const schedule: HandlerSchedule = {
		name: 'try-it',
		title: 'Try it',
		story: `your ${count} ${count === 1 ? 'delivery' : 'deliveries'}, as the solution's handlers answer them.`,
		deliveries,
		expect: {} as HandlerSchedule['expect']
	};
	for (const name of handlerNames) {
		const played = playHandler(schedule, (await makers(name)).solution());
		schedule.expect[name] = {
			outcomes: played.outcomes,
			tickets: played.db.tickets,
			receipts: played.db.receipts
		};
	}
	return schedule;
}

export function findHandlerSchedule(name: string): HandlerSchedule {
	const schedule = handlerSchedules().find((s) => s.name === name);
	if (!schedule) throw new Error(`there is no handler schedule "${name}" in schedules/handler/`);
	return schedule;
}

export async function playHandlers(ask: HandlersAsk, tell: Tell): Promise<HandlersReply> {
	const schedule =
		ask.kind === 'handlers' ? findHandlerSchedule(ask.schedule) : await tryItSchedule(ask.deliveries);
	const sides: SideRun[] = [];
	for (const name of handlerNames) {
		const skipped = ask.skip?.[name];
		// Left out: the page says why, in the side's place.
		const left: SideRun = {
			name,
			file: files[name],
			shown: 'yours',
			notWritten: null,
			steps: [],
			broke: null,
			disagreement: null
		};
		sides.push(skipped ? { ...left, broke: skipped } : await playSide(schedule, name, tell));
	}
	return { kind: 'handlers', sides };
}

async function raceHandler(implementation: RaceImplementation) {
	if (implementation === 'separate') return { mine: await given, theirs: null };
	const mine = await yours.atomic;
	const theirs = await solution.atomic;
	return 'error' in mine ? { error: mine.error, theirs } : { mine: mine.value, theirs };
}

export async function playRaceAsk(ask: RaceAsk, tell: Tell): Promise<RaceReply> {
	const schedule = raceSchedules().find((s) => s.name === ask.schedule);
	if (!schedule) throw new Error(`there is no race schedule "${ask.schedule}" in schedules/race/`);
	const judged = ask.interleaving.join(' ') === schedule.interleaving.join(' ');
	const reply: RaceReply = {
		kind: 'race',
		file: files[ask.implementation],
		shown: ask.implementation === 'separate' ? 'given' : 'yours',
		notWritten: null,
		trace: [],
		answers: [],
		tickets: [],
		receipts: [],
		broke: null,
		judged,
		disagreement: null
	};
	const handlers = await raceHandler(ask.implementation);
	if ('error' in handlers) {
		reply.broke = `${reply.file} could not be loaded: ${handlers.error}`;
		return reply;
	}
	const race = async (handle: RaceHandler) => {
		tell(`the race "${schedule.title}" on ${reply.file}, interleaving ${ask.interleaving.join(' ')}`);
		return playRace(schedule, handle, inTurn(ask.interleaving));
	};
	try {
		let played = await race(handlers.mine);
		const stub = stubIn(played.run);
		if (stub && handlers.theirs) {
			reply.notWritten = stub.message;
			reply.shown = 'solution';
			played = await race(handlers.theirs);
		}
		reply.trace = played.run.trace;
		reply.answers = schedule.workers.map(
			(worker) => `${worker.name}: ${saidAnswer(answerOf(worker.name, played.run.endings.get(worker.name)))}`
		);
		reply.tickets = played.contents.tickets.map(saidTicket);
		reply.receipts = played.contents.receipts.map(saidReceiptShort);
		if (judged) reply.disagreement = judgeRace(schedule, ask.implementation, played);
	} catch (error) {
		reply.broke = error instanceof Error ? error.message : String(error);
	}
	return reply;
}

export type { Outcome };
