// Exercise 01's checks: the shipped schedules as create-every-time, snapshot() as a copy, and random
// schedules judged against what the reference TicketHandler did.
import type { Probe } from '../trusted/probe.ts';
import { givenSchedules, heldOutSchedules, snapshotIsACopy } from './handler.ts';

export const probe: Probe = (settings) => [
	...givenSchedules('create-every-time'),
	snapshotIsACopy,
	...heldOutSchedules(settings, 'create-every-time')
];
