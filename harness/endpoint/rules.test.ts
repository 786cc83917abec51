// Every refusal in rules.json links to a section of 06's README that is there, named as GitHub names it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workbookRoot } from '../core/manifest.ts';
import { rules } from './contract.ts';

// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens.
const anchor = (heading: string) =>
	heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N} -]/gu, '')
		.replace(/ /g, '-');

describe('rules.json', () => {
	const readme = readFileSync(`${workbookRoot}/${rules.readme}`, 'utf8');
	const anchors = readme
		.split('\n')
		.flatMap((line) => (/^#+ /.test(line) ? [anchor(line.replace(/^#+ /, ''))] : []));
	for (const [name, { section }] of Object.entries(rules.problems))
		it(`"${name}" links to a section of the README that is there: #${section}`, () => {
			expect(anchors, `no heading of ${rules.readme} makes the anchor #${section}`).toContain(section);
		});
});
