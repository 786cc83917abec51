import { describe } from 'vitest';
import { heading } from '#shared/manifest.ts';
import { playHandlerSchedules, snapshotIsACopy } from '#shared/play-handler.ts';
import { TicketHandler } from './handler.ts';

describe(heading('01'), () => {
	playHandlerSchedules('create-every-time', () => new TicketHandler());
	snapshotIsACopy(() => new TicketHandler());
});
