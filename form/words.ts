// What the form says for each of its states, in the words the lesson uses. The journeys look for these.
import type { FormState } from '#harness/client/model.ts';
import type { Exchange } from './server/network.ts';

// What the page shows: one of the form's states, or the code under it having thrown.
export type Shown = FormState | { kind: 'threw'; message: string };

export function statusWords(shown: Shown): string {
	switch (shown.kind) {
		case 'editing':
			return 'Not sent yet.';
		case 'sending':
			return 'Sending…';
		case 'unsure': {
			const heard = shown.status === null ? 'no answer came back' : `the answer was HTTP ${shown.status}`;
			return `Could not confirm it was sent (${heard}). Press Try again: it sends the same request, with the same key.`;
		}
		case 'created':
			return shown.ticketId === null ? 'Ticket created.' : `Ticket #${shown.ticketId} created.`;
		case 'refused':
			return `Not created: the server refused it (HTTP ${shown.status}). Correct it and send it: that is a new request.`;
		case 'threw':
			return `The key store threw: ${shown.message}`;
	}
}

// What the endpoint said to one request, as the panel and the journeys' stories show it: "201", or
// "201, a replay (Idempotent-Replayed)" when it handed back a saved answer.
export function saidServer(exchange: Pick<Exchange, 'server' | 'replayed'>): string {
	if (exchange.server === null) return 'not passed on';
	return exchange.replayed ? `${exchange.server}, a replay (Idempotent-Replayed)` : String(exchange.server);
}
