// The playground page: playback of the handler schedules, Try it, and the race drawn. Every handler runs in
// the sandbox worker; this thread only loads the schedules (to list them) and draws.
import { handlerSchedules } from '#harness/handler/schedules.ts';
import { raceSchedules } from '#harness/race/schedules.ts';
import { h } from './dom.ts';
import { playback } from './playback.ts';
import { raceView } from './race.ts';
import { Sandbox } from './sandbox.ts';
import { tryIt } from './try-it.ts';

const sandbox = new Sandbox();
const app = document.getElementById('app')!;

try {
	const handlers = handlerSchedules();
	const races = raceSchedules();
	const section = (id: string, title: string, intro: string) => {
		const element = h(
			'section',
			{ id, 'aria-labelledby': `${id}-title` },
			h('h2', { id: `${id}-title` }, title),
			h('p', { class: 'intro' }, intro)
		);
		app.append(element);
		return element;
	};
	playback(
		section(
			'playback',
			'Follow the deliveries',
			'The handler schedules, one delivery at a time, on your 01 (left) and your 02 (right). Before each step, guess how many tickets each side ends with. ← and → step; End shows the last step.'
		),
		handlers,
		sandbox
	);
	tryIt(
		section(
			'try-it',
			'Try it',
			'Choose which event arrives and what happens to the worker, then deliver it to both handlers. Up to 8 deliveries; Reset starts again with empty databases. Where your handler answers differently from the solution, the page says so in the words of the tests.'
		),
		sandbox
	);
	raceView(
		section(
			'race',
			'The race, drawn',
			"Exercise 03's schedules: one lane per worker, one column per step of the interleaving. Each box is one database operation; a dashed box is a worker waiting for another's transaction to end. Change the interleaving and play it again. ← and → step."
		),
		races,
		sandbox
	);
} catch (error) {
	app.append(
		h('pre', { class: 'broke', role: 'alert' }, error instanceof Error ? error.message : String(error))
	);
}
