import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { everyoneCanEnter, reachableCopy } from './binaries.ts';
import { scratchFolder } from './template.ts';

describe('the PostgreSQL binaries where the server user can reach them', () => {
	const made: string[] = [];
	const folder = () => {
		const path = mkdtempSync(join(tmpdir(), 'workbook-binaries-test-'));
		made.push(path);
		return path;
	};
	afterEach(() => made.splice(0).forEach((path) => rmSync(path, { recursive: true, force: true })));

	// A package's native/ folder inside a home of mode 0700, as under /root.
	const nativeInPrivateHome = () => {
		const home = folder();
		const native = join(home, 'node_modules', 'native');
		mkdirSync(join(native, 'bin'), { recursive: true });
		writeFileSync(join(native, 'bin', 'postgres'), '#!/bin/sh\n', { mode: 0o755 });
		chmodSync(home, 0o700);
		return native;
	};

	it('a folder inside a 0700 home cannot be entered by another user; the OS temp dir can', () => {
		expect(everyoneCanEnter(nativeInPrivateHome())).toBe(false);
		expect(everyoneCanEnter(tmpdir())).toBe(true);
	});

	it('is copied once into a folder every user can enter, and found there the next time', () => {
		const scratch = folder();
		chmodSync(scratch, 0o755);
		const copy = reachableCopy(nativeInPrivateHome(), 'v1', scratch);
		expect(copy, 'the copy').not.toBeNull();
		expect(everyoneCanEnter(join(copy!, 'bin', 'postgres'))).toBe(true);
		expect(statSync(copy!).mode & 0o777).toBe(0o755);
		expect(reachableCopy(nativeInPrivateHome(), 'v1', scratch), 'the same copy, not a second').toBe(copy);
	});

	it('a copy others can write is never used', () => {
		const scratch = folder();
		const copy = reachableCopy(nativeInPrivateHome(), 'v2', scratch)!;
		chmodSync(copy, 0o777);
		expect(reachableCopy(nativeInPrivateHome(), 'v2', scratch)).toBeNull();
	});

	it('without /dev/shm the clusters go under the OS temp dir', () => {
		expect(scratchFolder(join(tmpdir(), 'no-such-memory-folder'))).toBe(tmpdir());
	});
});
