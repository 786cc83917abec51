import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heading } from '#shared/manifest.ts';
import { outboxProperty } from '#shared/outbox-property.ts';
import { playOutboxSchedules, type Sender } from '#shared/play-outbox.ts';
import { sendInside } from './send-inside.ts';

const inside = (): Sender => ({ name: 'send-inside', handle: sendInside, relay: null });

describe(heading('05'), () => {
	describe('send-inside.ts, the anti-pattern (given): these pass, and show the damage', () => {
		playOutboxSchedules(inside);
		it('the property finds an email for a ticket that does not exist', async () => {
			const result = await fc.check(outboxProperty(inside), { numRuns: 200, seed: 5 });
			expect(result.failed, 'sending inside the transaction should break the property').toBe(true);
			expect(String(result.errorInstance)).toMatch(/which does not exist|delivered emails, not 1/);
		});
	});
});
