// The wrong solutions' manifest (solutions/wrong/manifest.json): which exercise each one breaks, with which
// files, and the test that must catch it. Checked field by field, so a slip names the file and the field.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exercises } from '#harness/core/manifest.ts';

export type WrongSolution = {
	name: string;
	exercise: string;
	files: string[];
	mistake: string;
	test: string;
	says: string[];
};
export type Located = WrongSolution & { folder: string; dir: string };

const root = fileURLToPath(new URL('../../', import.meta.url));
export const solutionsDir = join(root, 'solutions');
export const wrongDir = join(solutionsDir, 'wrong');
export const wrongManifestPath = join(wrongDir, 'manifest.json');

export class WrongManifestError extends Error {
	override name = 'WrongManifestError';
}

// Every file under a folder, relative to it.
function filesUnder(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((file) => statSync(join(dir, file)).isFile())
		.sort();
}

export function wrongSolutions(path = wrongManifestPath): Located[] {
	const file = relative(root, path);
	const fail = (field: string, problem: string): never => {
		throw new WrongManifestError(`${file}: ${field}: ${problem}`);
	};
	let data: unknown;
	try {
		data = JSON.parse(readFileSync(path, 'utf8'));
	} catch (error) {
		throw new WrongManifestError(`${file}: not valid JSON (${(error as Error).message})`);
	}
	const list = (data as { wrong?: unknown }).wrong;
	if (!Array.isArray(list)) return fail('wrong', 'must be a list of wrong solutions');
	const dir = join(path, '..');
	const known = exercises();
	const seen = new Set<string>();
	const located = list.map((entry: Record<string, unknown>, i): Located => {
		const at = `wrong[${i}]`;
		const text = (field: keyof WrongSolution) => {
			const value = entry[field];
			if (typeof value !== 'string' || value.trim() === '')
				fail(`${at}.${field}`, 'must be a non-empty string');
			return value as string;
		};
		const texts = (field: keyof WrongSolution) => {
			const value = entry[field];
			if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string' || !v))
				fail(`${at}.${field}`, 'must be a non-empty list of non-empty strings');
			return value as string[];
		};
		const extra = Object.keys(entry).filter(
			(key) => !['name', 'exercise', 'files', 'mistake', 'test', 'says'].includes(key)
		);
		if (extra.length) fail(`${at}.${extra[0]}`, 'not a field here (misspelled?)');
		const wrong: WrongSolution = {
			name: text('name'),
			exercise: text('exercise'),
			files: texts('files'),
			mistake: text('mistake'),
			test: text('test'),
			says: texts('says')
		};
		if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(wrong.name))
			fail(`${at}.name`, `"${wrong.name}" must be kebab-case`);
		if (seen.has(wrong.name)) fail(`${at}.name`, `"${wrong.name}" is listed twice`);
		seen.add(wrong.name);
		const exercise = known.find((e) => e.id === wrong.exercise);
		if (!exercise)
			return fail(`${at}.exercise`, `no exercise "${wrong.exercise}" in exercises/manifest.json`);
		wrong.files.forEach((name, j) => {
			if (!exercise.learnerFiles.includes(name))
				fail(
					`${at}.files[${j}]`,
					`"${name}" is not a learner file of ${exercise.folder} (${exercise.learnerFiles.join(', ')})`
				);
		});
		const home = join(dir, wrong.name);
		const want = wrong.files.map((name) => join(exercise.folder, name)).sort();
		const have = existsSync(home) ? filesUnder(home) : [];
		const missing = want.filter((name) => !have.includes(name));
		const unlisted = have.filter((name) => !want.includes(name));
		if (missing.length) fail(`${at}.files`, `missing ${missing.map((f) => join(relative(root, home), f))}`);
		if (unlisted.length)
			fail(`${at}.files`, `does not list ${unlisted.map((f) => join(relative(root, home), f))}`);
		return { ...wrong, folder: exercise.folder, dir: home };
	});
	const folders = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
	for (const folder of folders) {
		if (!seen.has(folder.name)) fail('wrong', `solutions/wrong/${folder.name}/ is not listed`);
	}
	return located;
}
