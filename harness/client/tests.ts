// The tests exercise 04's file calls: every journey played with the learner's key store, and the given
// anti-pattern (a new key per attempt) pinned beside it, each judged by judge.ts.
//
//   playClientJourneys({ submissions, afterAnswer });   // in exercises/04-send-button-key/submission.test.ts
import { describe, it } from 'vitest';
import { clientJourneys, type ClientJourney } from './journeys.ts';
import { judgeJourney } from './judge.ts';
import { playJourney, type KeyStoreCode } from './play.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { plays } from '../core/plays.ts';

// One test per journey: the learner's key store plays its own, and the given anti-pattern is pinned beside it.
export function playClientJourneys(code: KeyStoreCode): void {
	const journeys = clientJourneys();
	const run = (journey: ClientJourney) => () => {
		const problem = judgeJourney(journey, playJourney(journey, code));
		if (problem) throw new ScheduleMismatch(problem);
	};
	describe('the journeys, with your key store', () => {
		for (const journey of journeys.filter((j) => j.client === 'key-store'))
			it(journey.title, plays(journey), run(journey));
	});
	describe('the anti-pattern, pinned: a given client that makes a new key per attempt', () => {
		for (const journey of journeys.filter((j) => j.client === 'new-key-per-attempt'))
			it(journey.title, plays(journey), run(journey));
	});
}
