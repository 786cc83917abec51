import { describe } from 'vitest';
import { playEndpointSchedules, playWebhookSchedules } from '#shared/endpoint/tests.ts';
import { heading } from '#shared/manifest.ts';
import { tickets, webhooks } from './endpoint.ts';

describe(heading('06'), () => {
	playEndpointSchedules({ tickets, webhooks });
	playWebhookSchedules({ tickets, webhooks });
});
