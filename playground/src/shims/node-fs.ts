// Stands in for node:fs in the page, for schedules.ts alone: the schedules and their JSON Schemas, bundled by
// Vite (import.meta.glob) and read by path as if from disk. Any other path is an error that says so.
const files = import.meta.glob('/schedules/**/*.json', {
	query: '?raw',
	import: 'default',
	eager: true
}) as Record<string, string>;

const byPath = new Map(Object.entries(files));

function missing(path: string): never {
	throw new Error(`${path}: the playground serves only the files under schedules/ to the page`);
}

export function readFileSync(path: string): string {
	return byPath.get(path) ?? missing(path);
}

export function readdirSync(folder: string): string[] {
	const prefix = folder.endsWith('/') ? folder : `${folder}/`;
	const names = [...byPath.keys()]
		.filter((path) => path.startsWith(prefix))
		.map((path) => path.slice(prefix.length))
		.filter((name) => !name.includes('/'));
	return names.length ? names : missing(folder);
}

export function existsSync(path: string): boolean {
	return byPath.has(path);
}
