// Exercise 04 in the sandbox: journeys (sends, lost answers, reloads) played by the learner's key store.
import { playJourney } from '#shared/players/play-client.ts';
import { saidError, type Observers } from './observer.ts';

export const observers: Observers = {
	journey: ({ 'submission.ts': code }, journey) => {
		const played = playJourney(journey, code as never);
		return {
			...played,
			threw: played.threw && { step: played.threw.step, error: saidError(played.threw.error) }
		};
	}
};
