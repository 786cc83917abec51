// Takes the README's pictures of the playground: npx tsx playground/screenshots.ts
// The page serves the learner's files as shipped (stubs, so the solution is shown), in Debian's chromium.
import { fileURLToPath } from 'node:url';
import { playAgainst } from '../lib/redirect.ts';
import { launchChromium } from '../lib/browser.ts';
import { startPlayground } from './server.ts';

const shipped = fileURLToPath(new URL('../learner/shipped/', import.meta.url));
const picture = (name: string) => fileURLToPath(new URL(`./screenshots/${name}.png`, import.meta.url));

const playground = await startPlayground({ port: 0, plugins: [playAgainst(shipped)] });
const browser = await launchChromium();
try {
	const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
	await page.goto(playground.url);
	await page.locator('#playback .loading').waitFor({ state: 'detached' });

	await page.click('[data-scene="lost-acknowledgment"]');
	await page.locator('#playback [data-step="next"]:not([disabled])').waitFor();
	await page.fill('#playback [data-guess="left"]', '1');
	await page.fill('#playback [data-guess="right"]', '1');
	await page.click('#playback [data-step="next"]');
	await page.click('#playback [data-step="next"]');
	await page.waitForTimeout(500); // the newest ticket's short fade-in
	await page.locator('#playback').screenshot({ path: picture('playback') });

	await page.check('#race input[name="implementation"][value="atomic"]');
	await page.click('#race [data-race="play"]');
	await page.locator('#race [data-counter]').waitFor();
	await page.click('#race [data-step="end"]');
	await page.waitForTimeout(500);
	await page.locator('#race').screenshot({ path: picture('race') });
	console.log(`${picture('playback')}\n${picture('race')}`);
} finally {
	await browser.close();
	await playground.close();
}
