// The browser tab a client journey plays in: its storage, the forms on the page, and the answers they hear.
// play-client.ts (against the fake endpoint) and endpoint/journeys.ts (over HTTP) both play journeys in one,
// so a journey's page-side steps mean the same on both; each player handles send and release itself.
//
//   const tab = new Tab(journey, maker);
//   tab.open();                          // the page (re)loads: every form asks its code what to show
//   tab.form('support').shows = …;       // a form on the page now
//   tab.deliver(request, answer);        // an answer reaches its form, unless its page is gone
//   locked = tab.play(step);             // type, edit, reload, store, break-storage; true if the form refused
//   tab.shows();                         // { form: what it shows } for the step's record
import type { Step } from './journeys.ts';
import { MemoryStorage } from './memory-storage.ts';
import { isLocked, type Answer, type TicketBody } from './model.ts';
import type { ClientMaker, Event, FormClient } from './play.ts';

export type OnPage = { client: FormClient; fields: TicketBody; shows: unknown };
// What a request must say for its answer to find its form: which page and which form sent it.
export type FromPage = { number: number; form: string; page: number };

export class Tab {
	readonly storage = new MemoryStorage();
	// What happened on the wire, in order; the players add the requests they send.
	readonly events: Event[] = [];
	page = 0;
	private forms = new Map<string, OnPage>();
	private keysMade = 0;

	constructor(
		private readonly journey: { forms: string[] },
		private readonly maker: ClientMaker
	) {}

	open(): void {
		this.page += 1;
		this.forms = new Map();
		for (const form of this.journey.forms) {
			const client = this.maker(this.storage, form, () => `key-${++this.keysMade}`);
			const { fields, shows } = client.opened();
			const restored = fields !== null && typeof fields === 'object' ? { ...fields } : { subject: '' };
			this.forms.set(form, { client, fields: restored, shows });
		}
	}

	form(name: string): OnPage {
		return this.forms.get(name)!;
	}

	// An answer reaches its form, unless the page that sent it is gone.
	deliver(request: FromPage, answer: Answer): void {
		if (request.page !== this.page) return;
		this.events.push({ heard: request.number, answer });
		const onPage = this.form(request.form);
		onPage.shows = onPage.client.hear(answer);
	}

	// A step that never reaches the network. Returns true for a type or edit the form refused.
	play(step: Step): boolean {
		switch (step.do) {
			case 'type':
			case 'edit': {
				// The fields are locked while the outcome is unknown: Try again sends what was sent.
				const onPage = this.form(step.form!);
				if (isLocked(onPage.shows)) return true;
				onPage.fields = { ...onPage.fields, subject: step.subject! };
				return false;
			}
			case 'reload':
				this.open();
				return false;
			case 'store':
				this.storage.put(step.item!, step.value!);
				return false;
			case 'break-storage':
				this.storage.fail();
				return false;
			default:
				throw new Error(`a ${step.do} step goes over the network: the player plays it, not the tab`);
		}
	}

	shows(): Record<string, unknown> {
		return Object.fromEntries([...this.forms].map(([form, { shows }]) => [form, shows]));
	}
}
