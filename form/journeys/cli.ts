// npm run browser -- 04: 04's browser journeys, in Debian's Chromium, on your key store.
//
//   npm run browser -- 04                      your exercises/04-send-button-key/submission.ts
//   npm run browser -- 04 --code solution      or wrong:<name>; add journey names to ride only those
//   npm run browser -- 04 --memory             against the in-memory endpoint instead of 06's on PostgreSQL
//
// Not part of `npm test`: each journey drives a real browser, so the whole ride takes several seconds.
// Without Chromium it says how to install it and exits 0, or 1 under CI=true.
import { MissingProgram } from '../../lib/packages.ts';
import { isCodeChoice } from '../server/key-store.ts';
import { rideJourneys } from './ride.ts';

const args = process.argv.slice(2);
const exercise = args.shift();
if (exercise !== '04' && exercise !== '4') {
	console.error(
		`npm run browser -- 04: only exercise 04 has browser journeys${exercise ? ` (not "${exercise}")` : ''}.`
	);
	process.exit(2);
}
// --memory: the harness's in-memory endpoint instead of exercise 06's on PostgreSQL (starts at once).
const memory = args.includes('--memory');
if (memory) args.splice(args.indexOf('--memory'), 1);
let code = 'learner';
const at = args.indexOf('--code');
if (at >= 0) [, code = ''] = args.splice(at, 2);
if (!isCodeChoice(code)) {
	console.error(`--code "${code}" is not learner, solution or wrong:<name>`);
	process.exit(2);
}

try {
	const ridden = await rideJourneys(
		code,
		args.length ? args : undefined,
		memory ? { endpoint: 'memory' } : {}
	);
	for (const { journey, story, ms } of ridden) {
		console.log(`${story ? '✘' : '✔'} ${journey.name}: ${journey.title} (${(ms / 1000).toFixed(1)} s)`);
		// The story's first line names the journey, which the line above has just said.
		if (story) console.log(`${story.split('\n').slice(1).join('\n').replace(/^/gm, '    ')}\n`);
	}
	const failed = ridden.filter((ridden) => ridden.story).length;
	console.log(`browser journeys: ${ridden.length - failed} passed, ${failed} failed`);
	process.exitCode = failed ? 1 : 0;
} catch (error) {
	if (!(error instanceof MissingProgram)) throw error;
	const ci = process.env.CI === 'true';
	console.log(`${ci ? '✘' : '-'} browser journeys ${ci ? 'cannot run' : 'skipped'}: ${error.message}`);
	process.exitCode = ci ? 1 : 0;
}
