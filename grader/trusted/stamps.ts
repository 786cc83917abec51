// What a grade is stamped with, so anyone can tell which workbook, schedules, files and seed made it.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from '../sandbox/paths.ts';

export type Stamps = { workbook: string; schedules: string; submission: string; seed: number };

// "0.1.0 (2799b56)": the package version and, in a git checkout, the commit.
export function workbookVersion(): string {
	const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
	try {
		const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
			cwd: root,
			stdio: ['ignore', 'pipe', 'ignore']
		})
			.toString()
			.trim();
		return commit ? `${version} (${commit})` : version;
	} catch {
		return version;
	}
}

// Every file under schedules/, path and content, in one hash.
export function schedulesHash(): string {
	const folder = join(root, 'schedules');
	const files = readdirSync(folder, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => join(entry.parentPath, entry.name))
		.sort();
	const hash = createHash('sha256');
	for (const file of files)
		hash
			.update(`${relative(folder, file)}\0`)
			.update(readFileSync(file))
			.update('\0');
	return hash.digest('hex').slice(0, 16);
}
