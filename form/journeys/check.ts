// verify's browser step: 04's journeys in Chromium pass with the solution, and fail with the learner's stub
// and with the key-store mistakes below, each on the journey that shows it.
import { launchChromium } from '../../lib/browser.ts';
import { MissingProgram } from '../../lib/packages.ts';
import type { Backend } from '../server/backend.ts';
import { startBackend } from '../server/endpoint.ts';
import { journeys } from './journeys.ts';
import { rideJourneys } from './ride.ts';
import { isMain } from '../../lib/main-module.ts';

// Mistakes from solutions/wrong/*.patch that a user at the form can see, and the journey that shows each one.
// (pending-body-replaced-by-the-edit is not here: the locked fields leave no edit to send.)
export const caught = [
	{
		wrong: 'new-key-per-attempt',
		journey: 'lost-response',
		says: 'request 1 carried key A, request 2 key B'
	},
	{ wrong: 'key-forgotten-on-409', journey: 'send-double-clicked', says: '[refused]' },
	{ wrong: 'key-forgotten-on-5xx', journey: 'server-error-keeps-the-key', says: '[refused]' },
	{
		wrong: 'key-kept-after-a-refusal',
		journey: 'refused-then-corrected',
		says: "it carried request 1's key again"
	}
];

export type Checked = { passed: number; failed: number; problems: string[]; skipped?: string };

export async function checkBrowserJourneys(): Promise<Checked> {
	let browser;
	try {
		browser = await launchChromium();
	} catch (error) {
		if (!(error instanceof MissingProgram) || process.env.CI === 'true') throw error;
		return { passed: 0, failed: 0, problems: [], skipped: error.message };
	}
	const problems: string[] = [];
	let passed = 0;
	const tally = (ok: boolean, problem: string) => (ok ? (passed += 1) : problems.push(problem));
	let endpoint: Backend | undefined;
	try {
		// One PostgreSQL for every ride: each journey empties its tables.
		endpoint = await startBackend('solution');
		const shared = { browser, endpoint };
		for (const { journey, story } of await rideJourneys('solution', undefined, shared))
			tally(story === null, `with the solution, ${story}`);
		const mine = journeys.filter((journey) => journey.keyStore).map((journey) => journey.name);
		for (const { journey, story } of await rideJourneys('learner', mine, shared))
			tally(
				story?.includes('not written yet') === true,
				`journey "${journey.name}" does not fail on the learner's stub saying "not written yet"${story ? `:\n${story}` : ': it passes'}`
			);
		for (const mistake of caught) {
			const [ridden] = await rideJourneys(`wrong:${mistake.wrong}`, [mistake.journey], shared);
			const story = ridden!.story;
			tally(
				story?.includes(mistake.says) === true,
				`wrong solution "${mistake.wrong}": journey "${mistake.journey}" ${story ? `fails without saying ${JSON.stringify(mistake.says)}:\n${story}` : 'passes: a gap in the journeys'}`
			);
		}
	} catch (error) {
		// A ride that could not finish is a failure to report, not a reason to stop verify.
		problems.push(`the browser check stopped: ${(error as Error)?.stack ?? String(error)}`);
	} finally {
		await endpoint?.stop();
		await browser.close();
	}
	return { passed, failed: problems.length, problems };
}

if (isMain(import.meta.url)) {
	const checked = await checkBrowserJourneys();
	for (const problem of checked.problems) console.log(`✘ ${problem}`);
	console.log(checked.skipped ?? `browser check: ${checked.passed} passed, ${checked.failed} failed`);
	process.exitCode = checked.failed ? 1 : 0;
}
