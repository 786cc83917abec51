// The page's side of the sandbox worker: one question at a time, and a handler that takes too long is
// stopped (the worker is ended and a new one started) with a message naming what it was running.
import type { HandlerName } from '#harness/handler/schedules.ts';
import type {
	Ask,
	FromSandbox,
	HandlersAsk,
	HandlersReply,
	RaceAsk,
	RaceReply,
	ToSandbox
} from './protocol.ts';

// A delivery takes well under a millisecond; this long means the handler will not return.
export const deliveryLimitMs = 2000;
// Loading the worker and the learner's files, the first time (Vite compiles them on request).
const loadLimitMs = 30_000;

export class HandlerStopped extends Error {
	override name = 'HandlerStopped';
	constructor(
		message: string,
		readonly side?: HandlerName
	) {
		super(message);
	}
}

type Waiting = {
	resolve: (reply: unknown) => void;
	reject: (error: Error) => void;
	on: string;
	side?: HandlerName;
};

export class Sandbox {
	private worker: Worker | null = null;
	private queue: Promise<unknown> = Promise.resolve();
	private waiting: Waiting | null = null;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private asked = 0;

	private start(): Worker {
		const worker = new Worker(new URL('./sandbox.worker.ts', import.meta.url), { type: 'module' });
		worker.onmessage = (event: MessageEvent<FromSandbox>) => this.heard(event.data);
		worker.onerror = (event) =>
			this.fail(new Error(`the sandbox stopped: ${event.message || 'an error while loading'}`));
		return worker;
	}

	private heard(message: FromSandbox): void {
		const waiting = this.waiting;
		if (!waiting || message.id !== this.asked) return;
		if (message.type === 'working') {
			waiting.on = message.on;
			waiting.side = message.side;
			this.arm(deliveryLimitMs);
			return;
		}
		clearTimeout(this.timer);
		this.waiting = null;
		if (message.type === 'reply') waiting.resolve(message.reply);
		else waiting.reject(new Error(message.message));
	}

	private arm(ms: number): void {
		clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			const on = this.waiting?.on ?? 'loading the handlers';
			const why = `${on}: the handler did not return within ${ms / 1000} s, so the playground stopped it.`;
			this.fail(new HandlerStopped(why, this.waiting?.side));
		}, ms);
	}

	private fail(error: Error): void {
		clearTimeout(this.timer);
		this.worker?.terminate();
		this.worker = null;
		const waiting = this.waiting;
		this.waiting = null;
		waiting?.reject(error);
	}

	private send(ask: Ask): Promise<unknown> {
		const run = () =>
			new Promise((resolve, reject) => {
				this.worker ??= this.start();
				this.waiting = { resolve, reject, on: 'loading the handlers' };
				this.arm(loadLimitMs);
				const message: ToSandbox = { id: ++this.asked, ask };
				this.worker.postMessage(message);
			});
		const answer = this.queue.then(run, run);
		this.queue = answer.catch(() => undefined);
		return answer;
	}

	// A side whose handler never returns is left out of a second try, so the other side is still shown.
	async handlers(ask: HandlersAsk): Promise<HandlersReply> {
		for (;;) {
			try {
				return (await this.send(ask)) as HandlersReply;
			} catch (error) {
				if (!(error instanceof HandlerStopped) || !error.side || ask.skip?.[error.side]) throw error;
				ask = { ...ask, skip: { ...ask.skip, [error.side]: error.message } };
			}
		}
	}

	race(ask: RaceAsk): Promise<RaceReply> {
		return this.send(ask) as Promise<RaceReply>;
	}
}
