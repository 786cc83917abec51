import { describe } from 'vitest';
import {
	playEndpointSchedules,
	playJourneysOverHttp,
	playWebhookSchedules
} from '#harness/endpoint/tests.ts';
import { exploreEndpoint } from '#harness/endpoint/explorations.ts';
import { heading } from '#harness/core/manifest.ts';
import { afterAnswer, submissions } from '../04-send-button-key/submission.ts';
import { tickets, webhooks } from './endpoint.ts';

describe(heading('06'), () => {
	playEndpointSchedules({ tickets, webhooks });
	playWebhookSchedules({ tickets, webhooks });
	playJourneysOverHttp({ submissions, afterAnswer }, { tickets, webhooks });
	exploreEndpoint({ tickets, webhooks });
});
