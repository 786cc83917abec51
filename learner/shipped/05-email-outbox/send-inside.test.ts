import { describe, expect, it } from 'vitest';
import { ProviderDown } from '#harness/outbox/mail-provider.ts';
import { heading } from '#harness/core/manifest.ts';
import type { Webhook } from '#harness/core/model.ts';
import { assertOutboxProperty, propertyTime } from '#harness/outbox/property.ts';
import { OutboxWorld, playOutboxSchedules, type Sender } from '#harness/outbox/play.ts';
import { sendInside } from './send-inside.ts';

const inside = (): Sender => ({ name: 'send-inside', handle: sendInside, relay: null });
const evt42: Webhook = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' };

describe(heading('05'), () => {
	describe('send-inside.ts, the anti-pattern (given): these pass, and show the damage', () => {
		playOutboxSchedules(inside);
		it('while the provider is down, no ticket can be made at all: the delivery fails and rolls back', async () => {
			const world = new OutboxWorld();
			world.provider.goDown();
			const ending = await world.deliver('delivery 1', inside(), evt42);
			expect(ending).toMatchObject({ kind: 'failed', error: expect.any(ProviderDown) });
			expect(world.db.committed().tickets).toEqual([]);
		});
		it('the property finds an email about a ticket that does not exist', propertyTime, async () => {
			await expect(assertOutboxProperty(inside, { numRuns: 200, seed: 5 })).rejects.toThrow(
				/which does not exist|delivered emails, not 1/
			);
		});
	});
});
