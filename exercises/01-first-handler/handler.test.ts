import { describe } from 'vitest';
import { playHandlerSchedules, snapshotIsACopy } from '#shared/play-handler.ts';
import { TicketHandler } from './handler.ts';

describe('01 · The first handler', () => {
	playHandlerSchedules('create-every-time', () => new TicketHandler());
	snapshotIsACopy(() => new TicketHandler());
});
