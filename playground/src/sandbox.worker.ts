// The sandbox: a Worker that runs the learner's handlers, so one that loops forever stops only this worker
// (the page ends it and starts another), never the page. It says what it is about to run before each delivery.
import './shims/immediate.ts';
import { playHandlers, playRaceAsk } from './play.ts';
import type { HandlerName } from '#harness/handler/schedules.ts';
import type { FromSandbox, ToSandbox } from './protocol.ts';

const post = (message: FromSandbox) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<ToSandbox>) => {
	const { id, ask } = event.data;
	const tell = (on: string, side?: HandlerName) => post({ type: 'working', id, on, side });
	try {
		const reply = ask.kind === 'race' ? await playRaceAsk(ask, tell) : await playHandlers(ask, tell);
		post({ type: 'reply', id, reply });
	} catch (error) {
		post({ type: 'error', id, message: error instanceof Error ? error.message : String(error) });
	}
};
post({ type: 'working', id: 0, on: 'ready' });
