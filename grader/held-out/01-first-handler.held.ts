// Exercise 01's held-out checks: TicketHandler against the reference, on schedules the tests do not ship.
import { describe } from 'vitest';
import { heading } from '#shared/manifest.ts';
import { TicketHandler } from '../../exercises/01-first-handler/handler.ts';
import { TicketHandler as Reference } from '../../solutions/01-first-handler/handler.ts';
import { heldOutHandler } from './handler.ts';

describe(heading('01'), () => {
	heldOutHandler(
		'create-every-time',
		() => new TicketHandler(),
		() => new Reference()
	);
});
