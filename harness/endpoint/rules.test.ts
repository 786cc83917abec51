// Every refusal in rules.json links to a section of 06's README that is there, named as GitHub names it; and
// the Link, resolved against the request's URL as a client resolves it, is that README, served by the harness.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workbookRoot } from '../core/manifest.ts';
import { refuse, rules, type Rule } from './contract.ts';
import { serve, type Served } from './server.ts';

// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens.
const anchor = (heading: string) =>
	heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N} -]/gu, '')
		.replace(/ /g, '-');
const anchorsOf = (readme: string) =>
	readme.split('\n').flatMap((line) => (/^#+ /.test(line) ? [anchor(line.replace(/^#+ /, ''))] : []));

describe('rules.json', () => {
	const readme = readFileSync(`${workbookRoot}/${rules.readme}`, 'utf8');
	const anchors = anchorsOf(readme);
	for (const [name, { section }] of Object.entries(rules.problems))
		it(`"${name}" links to a section of the README that is there: #${section}`, () => {
			expect(anchors, `no heading of ${rules.readme} makes the anchor #${section}`).toContain(section);
		});
});

describe("a refusal's Link, followed as a client follows it", () => {
	let server: Served;
	let rule: Rule = 'key-syntax';
	beforeAll(async () => {
		server = await serve({ '/api/tickets': async () => refuse(rule) });
	});
	afterAll(() => server.close());

	for (const name of Object.keys(rules.problems) as Rule[])
		it(`"${name}": resolves against the request's URL to 06's README, served there, at its section`, async () => {
			rule = name;
			const requested = `${server.url}/api/tickets`;
			const answer = await fetch(requested, { method: 'POST', body: '{}' });
			const link = /^<([^>]*)>; rel="describedby"$/.exec(answer.headers.get('Link') ?? '');
			expect(link, `Link: ${answer.headers.get('Link')}`).not.toBeNull();
			const target = new URL(link![1]!, requested);
			expect(target.pathname, 'the README at its path in the workbook').toBe(`/${rules.readme}`);
			const followed = await fetch(target);
			expect(followed.status).toBe(200);
			expect(followed.headers.get('Content-Type')).toBe('text/markdown; charset=utf-8');
			expect(anchorsOf(await followed.text())).toContain(target.hash.slice(1));
		});
});
