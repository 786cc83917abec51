import { describe, expect, it } from 'vitest';
import { heading } from '#harness/core/manifest.ts';
import { playStatusSchedules } from '#harness/status/play.ts';
import { exploreStatus } from '#harness/status/explore.ts';
import { ChangeHandler, type SetStatus } from '#harness/status/model.ts';
import { addComment, setStatus } from './status.ts';

const close = (changeId: string, decidedOn: number): SetStatus => ({
	kind: 'set-status',
	changeId,
	ticketId: 1,
	status: 'closed',
	decidedOn
});
const handler = () => new ChangeHandler({ setStatus, addComment }, [{ id: 1, status: 'open', version: 1 }]);

describe(heading('07'), () => {
	playStatusSchedules('versioned', () => ({ setStatus, addComment }));
	exploreStatus(() => ({ setStatus, addComment }));

	describe('setStatus: no receipt', () => {
		it('closing five times keeps no receipt and leaves one state', () => {
			const h = handler();
			const answers = [1, 2, 3, 4, 5].map(() => h.handle(close('chg-1', 1)));
			expect(new Set(answers.map((a) => JSON.stringify(a))).size, 'five deliveries, one answer').toBe(1);
			expect(h.snapshot().receipts, 'a status change needs no receipt').toEqual([]);
			expect(h.snapshot().tickets[0]).toMatchObject({ status: 'closed', version: 2 });
		});
		it('a stale change writes nothing', () => {
			const h = handler();
			h.handle(close('chg-1', 1));
			const before = h.snapshot();
			expect(h.handle({ ...close('chg-2', 1), status: 'open' })).toEqual({ kind: 'stale', version: 2 });
			expect(h.snapshot(), 'refused: the ticket is as it was').toEqual(before);
		});
	});
});
