// Stands in for node:path in the page: the few POSIX path functions schedules.ts uses.
export const sep = '/';

function normal(path: string): string {
	const parts: string[] = [];
	for (const part of path.split('/')) {
		if (part === '' || part === '.') continue;
		if (part === '..') parts.pop();
		else parts.push(part);
	}
	return `${path.startsWith('/') ? '/' : ''}${parts.join('/')}`;
}

export function join(...paths: string[]): string {
	return normal(paths.join('/'));
}

export function basename(path: string, extension = ''): string {
	const name = path.slice(path.lastIndexOf('/') + 1);
	return extension && name.endsWith(extension) ? name.slice(0, -extension.length) : name;
}

export function relative(from: string, to: string): string {
	const base = normal(from).replace(/\/?$/, '/');
	const target = normal(to);
	return target.startsWith(base) ? target.slice(base.length) : target;
}
