// Exercise 02's held-out checks: sameEvent, replay and ReceiptHandler against the reference, on random input.
import fc from 'fast-check';
import { describe } from 'vitest';
import { heading } from '#shared/manifest.ts';
import { ReceiptHandler, replay, sameEvent } from '../../exercises/02-same-event/handler.ts';
import * as reference from '../../solutions/02-same-event/handler.ts';
import { heldOutHandler, webhook } from './handler.ts';
import { heldOutChecks } from './seed.ts';

const said = (value: unknown) => JSON.stringify(value);

describe(heading('02'), () => {
	heldOutChecks('sameEvent pairs', fc.tuple(webhook, webhook), ([a, b]) => {
		const wanted = reference.sameEvent(a, b);
		const got = sameEvent({ ...a }, { ...b });
		return got === wanted
			? null
			: `sameEvent(${said(a)}, ${said(b)}): the reference solution says ${wanted}, your code ${said(got)}`;
	});
	const receiptAndEvent = fc.tuple(webhook, webhook, fc.integer({ min: 1, max: 9 }));
	heldOutChecks('replay answers', receiptAndEvent, ([seen, event, ticketId]) => {
		// replay is only asked about the same event, so the event keeps the receipt's identity.
		const again = { ...event, tenant: seen.tenant, source: seen.source, eventId: seen.eventId };
		const receipt = { ...seen, ticketId };
		const wanted = reference.replay(receipt, again);
		const got = replay({ ...receipt }, { ...again });
		return said(got) === said(wanted)
			? null
			: `replay(${said(receipt)}, ${said(again)}): the reference solution says ${said(wanted)}, your code ${said(got)}`;
	});
	heldOutHandler(
		'receipt-in-commit',
		() => new ReceiptHandler(),
		() => new reference.ReceiptHandler()
	);
});
