// Debian's Chromium, driven by playwright-core: never a test tool's own browser download.
//
//   const browser = await launchChromium();
//   try { const page = await browser.newPage(); … } finally { await browser.close(); }
//
// The flags keep a headless Chromium off the network it cannot reach here (no sync, no updates, no QUIC), and
// --no-sandbox lets it run as root; --disable-dev-shm-usage keeps its shared memory in the temp dir, so a machine
// without /dev/shm, or a container's 64 MB one, does not crash its pages. Each launch gets a new empty profile, removed when the browser closes.
import { chromium, type Browser } from 'playwright-core';
import { needProgram } from './packages.ts';

export const chromiumFlags = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-dev-shm-usage',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync'
];

export function launchChromium(): Promise<Browser> {
	return chromium.launch({ executablePath: needProgram('chromium'), headless: true, args: chromiumFlags });
}
