// Takes form/unsure.png, the picture in 04's README: the form after a lost answer, unsure and locked.
//
//   npx tsx form/screenshot.ts
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../lib/browser.ts';
import { expectShows, next, press, type } from './journeys/tab.ts';
import { startStack } from './server/stack.ts';

const file = fileURLToPath(new URL('./unsure.png', import.meta.url));
const browser = await launchChromium();
const stack = await startStack({ code: 'auto' }).catch(async (error) => {
	await browser.close();
	throw error;
});
try {
	const page = await browser.newPage({ viewport: { width: 1100, height: 620 } });
	await page.goto(stack.url);
	await type(page, 'Cannot sign in');
	await next(page, stack, { do: 'lose' });
	await press(page, 'Send');
	await expectShows(page, 'unsure');
	await page.waitForTimeout(800); // The panel reads the network twice a second: let it catch up.
	await page.screenshot({ path: file });
	console.log(`wrote ${file}`);
} finally {
	await stack.stop();
	await browser.close();
}
