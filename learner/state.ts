// What the learner's commands remember between runs, kept in .learner/ (git-ignored, never shipped).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const stateFolder = (root: string) => join(root, '.learner');

// How many hints of each exercise were shown: { "01": 2 }. A damaged file counts as none shown. The Go
// track's `go run ./cmd/workbook hint` keeps its own count in the same file, as "go:01" (its answers are Go's):
// each command leaves the other's counts as they are.
export function hintsShown(root: string): Record<string, number> {
	const path = join(stateFolder(root), 'hints-shown.json');
	if (!existsSync(path)) return {};
	try {
		const shown = JSON.parse(readFileSync(path, 'utf8')) as unknown;
		return shown && typeof shown === 'object' && !Array.isArray(shown)
			? (shown as Record<string, number>)
			: {};
	} catch {
		return {};
	}
}

export function saveHintsShown(root: string, shown: Record<string, number>): void {
	mkdirSync(stateFolder(root), { recursive: true });
	writeFileSync(join(stateFolder(root), 'hints-shown.json'), `${JSON.stringify(shown, null, '\t')}\n`);
}
