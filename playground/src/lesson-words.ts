// The lesson's shorter words, where the page draws what the harness's words.ts says in full.
import type { Receipt } from '#harness/core/model.ts';
import { saidIdentity } from '#harness/core/identity.ts';

// A receipt as the lesson lists it: "acme/helpdesk/evt-42 → #1" (words.ts adds the subject).
export const saidReceiptShort = (receipt: Receipt) => `${saidIdentity(receipt)} → #${receipt.ticketId}`;
