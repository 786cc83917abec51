import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { root } from '../sandbox/paths.ts';
import { learnerNames } from './names.ts';
import { maxLearnerFile, readSubmission } from './submission.ts';
import { takeFile } from './unpack.ts';

function folder(files: Record<string, string>): string {
	const dir = mkdtempSync(join(tmpdir(), 'submission-'));
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(dir, path)), { recursive: true });
		writeFileSync(join(dir, path), content);
	}
	return dir;
}
const shipped = (path: string) => readFileSync(join(root, path), 'utf8');

describe('readSubmission: only the allowlisted learner files', () => {
	it('takes a learner file from a copy of the workbook, and reports the missing ones', () => {
		const dir = folder({ 'exercises/01-first-handler/handler.ts': 'export class TicketHandler {}' });
		const submission = readSubmission(dir, exercises());
		expect([...submission.files.keys()]).toEqual(['01-first-handler/handler.ts']);
		expect(submission.missing).toContain('exercises/02-same-event/handler.ts');
		expect(submission.notAWorkbook).toBeNull();
	});

	it('takes the same file from just the exercises/ folder', () => {
		const dir = folder({ '01-first-handler/handler.ts': 'export class TicketHandler {}' });
		expect([...readSubmission(dir, exercises()).files.keys()]).toEqual(['01-first-handler/handler.ts']);
	});

	it('reports edited and extra files as ignored, stays quiet about unchanged ones, and skips node_modules', () => {
		const dir = folder({
			'exercises/01-first-handler/handler.test.ts': 'it("passes", () => {})',
			'exercises/01-first-handler/notes.md': 'my notes',
			'exercises/02-same-event/handler.test.ts': shipped('exercises/02-same-event/handler.test.ts'),
			'README.md': shipped('README.md'),
			'node_modules/vitest/index.js': 'export {}'
		});
		expect(readSubmission(dir, exercises()).ignored).toEqual([
			'exercises/01-first-handler/handler.test.ts (edited)',
			'exercises/01-first-handler/notes.md (not in the workbook)',
			'node_modules/ (skipped)'
		]);
	});

	it('refuses a symbolic link and a file too large to be a handler', () => {
		const dir = folder({ 'exercises/02-same-event/handler.ts': 'x'.repeat(maxLearnerFile + 1) });
		mkdirSync(join(dir, 'exercises/01-first-handler'));
		symlinkSync(
			join(root, 'solutions/01-first-handler/handler.ts'),
			join(dir, 'exercises/01-first-handler/handler.ts')
		);
		const submission = readSubmission(dir, exercises());
		expect(submission.files.size).toBe(0);
		expect(submission.refused).toEqual([
			'exercises/01-first-handler/handler.ts (a symbolic link at exercises/01-first-handler/handler.ts)',
			'exercises/02-same-event/handler.ts (larger than 256 KB)'
		]);
	});

	it('says when a folder is empty, or not a workbook at all, or not a folder', () => {
		expect(readSubmission(folder({}), exercises()).notAWorkbook).toBe('the folder is empty');
		const other = readSubmission(folder({ 'essay.docx': '...' }), exercises());
		expect(other.notAWorkbook).toMatch(/not a workbook/);
		expect(other.ignored).toEqual(['essay.docx (not a workbook)']);
		expect(readSubmission(join(root, 'package.json'), exercises()).notAWorkbook).toBe(
			'the submission is not a folder'
		);
	});

	it('hashes exactly the files it took', () => {
		const a = readSubmission(folder({ '01-first-handler/handler.ts': 'a' }), exercises());
		const b = readSubmission(folder({ '01-first-handler/handler.ts': 'a', 'other.ts': 'b' }), exercises());
		const c = readSubmission(folder({ '01-first-handler/handler.ts': 'c' }), exercises());
		expect(a.hash).toBe(b.hash);
		expect(a.hash).not.toBe(c.hash);
	});
});

describe('the careful unpacker', () => {
	it('refuses a link at any component of the path, a FIFO, and a device, without opening them', () => {
		const dir = folder({ 'exercises/02-same-event/handler.ts': 'export {}' });
		symlinkSync(join(root, 'solutions', '01-first-handler'), join(dir, 'exercises', '01-first-handler'));
		mkdirSync(join(dir, 'exercises', '04-send-button-key'));
		spawnSync('mkfifo', [join(dir, 'exercises', '04-send-button-key', 'submission.ts')]);
		mkdirSync(join(dir, 'exercises', '05-email-outbox'));
		symlinkSync('/dev/zero', join(dir, 'exercises', '05-email-outbox', 'outbox.ts'));
		const submission = readSubmission(dir, exercises());
		expect([...submission.files.keys()]).toEqual(['02-same-event/handler.ts']);
		expect(submission.refused).toEqual([
			'exercises/01-first-handler/handler.ts (a symbolic link at exercises/01-first-handler)',
			'exercises/04-send-button-key/submission.ts (a FIFO: only regular files are taken)',
			'exercises/05-email-outbox/outbox.ts (a symbolic link at exercises/05-email-outbox/outbox.ts)'
		]);
	});

	it('never takes more than the cap, even from a file that grows', () => {
		const dir = folder({ 'big.txt': 'x'.repeat(100) });
		expect(takeFile(dir, 'big.txt', 10)).toEqual({ content: null, refused: 'larger than 0 KB' });
		expect(takeFile(dir, 'big.txt', 100)).toEqual({ content: 'x'.repeat(100), refused: null });
		expect(takeFile(dir, '../big.txt', 100)).toEqual({ content: null, refused: 'a path with . or ..' });
		expect(takeFile(dir, 'missing.txt', 100)).toBeNull();
	});
});

describe('learner names', () => {
	it('are paths relative to the class folder: unique, stable, never "." or "..", never an output name', () => {
		const named = learnerNames(
			[
				'/class/a/alice',
				'/class/b/alice',
				'/class/class.csv',
				'/class/x/..',
				'/class/.hidden',
				'/class/josé'
			],
			'/class'
		);
		expect(named).toEqual([
			{ path: '/class/a/alice', name: 'a~alice' },
			{ path: '/class/b/alice', name: 'b~alice' },
			{ path: '/class/class.csv', name: expect.stringMatching(/^class\.csv-[0-9a-f]{8}$/) },
			{ path: '/class/x/..', refused: 'its path ends in . or ..' },
			{ path: '/class/.hidden', name: expect.stringMatching(/^_\.hidden-[0-9a-f]{8}$/) },
			{ path: '/class/josé', name: 'josé' }
		]);
		expect(learnerNames(['/c/alice', '/c/bob', '/c/bob/..', '/c'])).toEqual([
			{ path: '/c/alice', name: 'alice' },
			{ path: '/c/bob', name: 'bob' },
			{ path: '/c/bob/..', refused: 'its path ends in . or ..' },
			{ path: '/c', refused: 'it holds other submissions' }
		]);
		expect(learnerNames(['/c/alice', '/c/alice'])).toEqual([
			{ path: '/c/alice', refused: 'the same folder is given twice' },
			{ path: '/c/alice', refused: 'the same folder is given twice' }
		]);
	});

	it('give any folder name a safe, unique name, the same on every run: never a refusal', () => {
		const odd = [
			'Ann Lee',
			`o'brien "jr"`,
			'bob\n  02: forged',
			'=2+5',
			'Alice',
			'alice',
			'a~b',
			'a/b',
			'\u202eevil'
		];
		const named = learnerNames(
			odd.map((name) => `/class/${name}`),
			'/class'
		);
		const names = named.map((entry) => ('name' in entry ? entry.name : entry.refused));
		for (const name of names) expect(name).toMatch(/^[\p{L}\p{N}_.+@=~-]+$/u);
		expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(odd.length);
		expect(names.slice(0, 4)).toEqual([
			expect.stringMatching(/^Ann_Lee-[0-9a-f]{8}$/),
			expect.stringMatching(/^o_brien__jr_-[0-9a-f]{8}$/),
			expect.stringMatching(/^bob___02__forged-[0-9a-f]{8}$/),
			'=2+5'
		]);
		expect(
			learnerNames(
				odd.map((name) => `/class/${name}`),
				'/class'
			)
		).toEqual(named);
		// Two names that change alike and whose hashes meet in eight hex digits (found by trying names): each gets
		// a longer suffix, and a name that meets neither keeps its own.
		const met = learnerNames(['/c/Ann   [><', '/c/Ann !&<,$', '/c/Ann Lee'], '/c');
		expect(met.map((entry) => ('name' in entry ? entry.name : ''))).toEqual([
			expect.stringMatching(/^Ann______-919bb4e9[0-9a-f]{8}$/),
			expect.stringMatching(/^Ann______-919bb4e9[0-9a-f]{8}$/),
			expect.stringMatching(/^Ann_Lee-[0-9a-f]{8}$/)
		]);
		expect(new Set(met.map((entry) => ('name' in entry ? entry.name : ''))).size).toBe(3);
		// Names as long as a folder's name may be, in letters of three bytes each (CJK), alone or two folders deep:
		// each a name a folder can hold (255 bytes), the suffix too.
		const wide = ['中'.repeat(84) + ' ', `${'中'.repeat(60)}/${'中'.repeat(60)}`, '中'.repeat(85)];
		const wideNames = learnerNames(
			wide.map((name) => `/c/${name}`),
			'/c'
		);
		for (const entry of wideNames)
			expect(Buffer.byteLength('name' in entry ? entry.name : '')).toBeLessThanOrEqual(255);
		expect(new Set(wideNames.map((entry) => ('name' in entry ? entry.name : ''))).size).toBe(3);
		// A folder named like another's changed name is changed too.
		const [first] = names;
		const again = learnerNames(['/class/Ann Lee', `/class/${first}`], '/class');
		expect(again.map((entry) => ('name' in entry ? entry.name : ''))).toEqual([
			first,
			expect.stringMatching(new RegExp(`^${first}-[0-9a-f]{8}$`))
		]);
	});
});
