// What learner/ui.test.ts measures in the Vitest UI's page, as a learner's eyes would see it.
//
//   await boxesThatOverflow(page) // ['the panel 1126 > 924:   (stopped at delivery 1 …'] for a panel cut off at the right
//   await nameInSight(row)        // { text, width, contrast }: the row's name, how many pixels of it show, and
//                                 // how it reads against what is behind it (WCAG's ratio: 3 is large text's floor)
//
// The width is found by asking the page what is on top, point by point along the name's line: a name clipped
// by its box or covered by buttons shows only what is left. Both run inside the page (Playwright's evaluate),
// so they use nothing from outside their own bodies.
import type { Locator, Page } from 'playwright-core';

// Each failure panel, and each block of text in it, whose text runs wider than its box, with its longest line.
export function boxesThatOverflow(page: Page): Promise<string[]> {
	return page.evaluate(() =>
		[...document.querySelectorAll<HTMLElement>('.task-error, .task-error pre')]
			.filter((box) => box.scrollWidth > box.clientWidth + 1)
			.map(
				(box) =>
					`${box.tagName === 'PRE' ? 'its text' : 'the panel'} ${box.scrollWidth} > ${box.clientWidth}: ${box.innerText.split('\n').reduce((a, b) => (b.length > a.length ? b : a), '')}`
			)
	);
}

export function nameInSight(row: Locator): Promise<{ text: string; width: number; contrast: number }> {
	return row.evaluate((item) => {
		const label = item.getAttribute('aria-label') ?? '';
		// The innermost element holding the whole name.
		const holders = [...item.querySelectorAll<HTMLElement>('*')].filter((e) => e.textContent === label);
		const name = holders.find((e) => !holders.some((other) => other !== e && e.contains(other)));
		if (!name) return { text: '', width: 0, contrast: 0 };
		const box = name.getBoundingClientRect();
		const y = box.top + box.height / 2;
		let width = 0;
		for (let x = Math.ceil(box.left); x < box.right; x += 1) {
			const top = document.elementFromPoint(x, y);
			if (top && name.contains(top)) width += 1;
		}
		// The colours: the name's, and what is behind it, each layer's background laid over the one below.
		const rgba = (css: string) => {
			const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
			return { r, g, b, a: css.startsWith('rgba') ? a : 1 };
		};
		const layers: ReturnType<typeof rgba>[] = [];
		for (let e: Element | null = name; e; e = e.parentElement)
			layers.push(rgba(getComputedStyle(e).backgroundColor));
		const behind = layers.reduceRight(
			(below, layer) => ({
				r: layer.r * layer.a + below.r * (1 - layer.a),
				g: layer.g * layer.a + below.g * (1 - layer.a),
				b: layer.b * layer.a + below.b * (1 - layer.a),
				a: 1
			}),
			{ r: 255, g: 255, b: 255, a: 1 }
		);
		const ink = rgba(getComputedStyle(name).color);
		const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
			const linear = (c: number) =>
				c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4;
			return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
		};
		const [light, dark] = [luminance(ink), luminance(behind)].sort((p, q) => q - p);
		const visible =
			getComputedStyle(name).visibility === 'visible' && Number(getComputedStyle(name).opacity) > 0;
		return {
			text: name.innerText,
			width: visible ? width : 0,
			contrast: (light! + 0.05) / (dark! + 0.05)
		};
	});
}
