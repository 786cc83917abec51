// What the Vitest UI's websocket carries, relative to the workbook: Vitest sends the page every file by its
// absolute path (the files, their module graphs, the config's root, every stack), so the page would hold where
// the workbook lies on this machine. Each message it sends has the workbook's folder taken out of its paths
// ("/home/ana/workbook/exercises/01-first-handler/handler.ts" → "exercises/01-first-handler/handler.ts", the
// folder itself → "."), and each message the page sends back (read this file, this module's graph, rerun these
// files) has it put back in, so Vitest is handed the paths it knows.
//
//   onInit(vitest) { pathsFromTheWorkbook(vitest, workbookRoot); }   // in the UI's reporter (ui-reporter.ts)
//
// Messages are text (flatted's JSON, every string an item of its top array, or a key of one): a path is replaced as JSON writes
// it, and on the way back a string is made absolute again only where it is a path this sent, or names a file or
// folder in the workbook.
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Vitest } from 'vitest/node';

type Socket = {
	send: (data: unknown, ...rest: unknown[]) => void;
	on: (event: string, listener: (...args: unknown[]) => void) => unknown;
};
type Server = { on: (event: 'connection', listener: (socket: Socket) => void) => unknown };

const inJson = (text: string) => JSON.stringify(text).slice(1, -1);

// The folder's spellings (as given, with links resolved, node_modules too when it is a link, and as file URLs)
// with what each becomes, longest first; the folder without its separator is the config's root.
function spellings(workbook: string): [string, string][] {
	const folder = workbook.endsWith(sep) ? workbook : `${workbook}${sep}`;
	const real = (path: string) => {
		try {
			return `${realpathSync(path)}${sep}`;
		} catch {
			return `${path}${sep}`;
		}
	};
	const url = (path: string) => pathToFileURL(path).href.replace(/\/?$/, '/');
	const modules = real(join(folder, 'node_modules'));
	const pairs: [string, string][] = [
		// A stack's frame may name its file as a URL (file:///…/node_modules/@vitest/runner/…).
		...[modules, folder, real(folder)].map((path): [string, string] => [
			url(path),
			path === modules ? 'node_modules/' : ''
		]),
		[modules, `node_modules${sep}`],
		[folder, ''],
		[real(folder), ''],
		[`"${inJson(folder.slice(0, -1))}"`, '"."'],
		[`"${inJson(real(folder).slice(0, -1))}"`, '"."']
	];
	return pairs
		.map(([from, to]): [string, string] => (from.startsWith('"') ? [from, to] : [inJson(from), to]))
		.sort((a, b) => b[0].length - a[0].length);
}

// Both ways of one page's messages. Each path sent is remembered, so one sent back is the very path Vitest sent
// (a node_modules reached through a link stays the path Vitest knows it by).
export function wire(workbook: string): {
	out: (message: string) => string;
	in: (message: string) => string;
} {
	const pairs = spellings(workbook);
	const sent = new Map<string, string>();
	const relative = (text: string) => pairs.reduce((told, [from, to]) => told.split(from).join(to), text);
	const inside = (value: string) =>
		value === '.' ||
		(!isAbsolute(value) && value.includes('/') && existsSync(join(workbook, value.split(/[?#]/)[0]!)));
	const strings = (message: string, each: (value: string) => string): string | null => {
		let values: unknown;
		try {
			values = JSON.parse(message);
		} catch {
			return null;
		}
		if (!Array.isArray(values)) return null;
		const item = (value: unknown): unknown =>
			typeof value === 'string'
				? each(value)
				: value && typeof value === 'object' && !Array.isArray(value)
					? Object.fromEntries(Object.entries(value).map(([key, inner]) => [each(key), inner]))
					: value;
		return JSON.stringify(values.map(item));
	};
	return {
		// flatted writes every string as an item of its top array, and keys in its objects (a map by path): each
		// is told from the workbook.
		out: (message) =>
			strings(message, (value) => {
				const told = JSON.parse(relative(JSON.stringify(value))) as string;
				if (told !== value && isAbsolute(value)) sent.set(told, value);
				return told;
			}) ?? relative(message),
		in: (message) =>
			strings(message, (value) =>
				sent.has(value)
					? sent.get(value)!
					: inside(value)
						? value === '.'
							? workbook.replace(/[\\/]$/, '')
							: join(workbook, value)
						: value
			) ?? message
	};
}

// Every socket the UI's server opens from now on speaks in paths from the workbook. Vitest's API server is
// its reporter that holds the sockets (api/setup.ts): none, and nothing changes.
export function pathsFromTheWorkbook(vitest: Vitest, workbook: string): void {
	const { reporters } = vitest as unknown as { reporters: { wss?: Server }[] };
	const server = reporters.find((reporter) => reporter.wss)?.wss;
	server?.on('connection', (socket) => {
		const paths = wire(workbook);
		const send = socket.send.bind(socket);
		socket.send = (data, ...rest) => send(typeof data === 'string' ? paths.out(data) : data, ...rest);
		const on = socket.on.bind(socket);
		socket.on = (event, listener) =>
			event === 'message'
				? on(event, (data: unknown, ...rest: unknown[]) => listener(paths.in(String(data)), ...rest))
				: on(event, listener);
	});
}
