// The playground's Vite server: the page at /playground/, and the learner's files from exercises/.
//
//   const server = await startPlayground({ port: 0 });   // 0: any free port on 127.0.0.1
//   server.url;                                          // "http://127.0.0.1:5173/playground/"
//   await server.close();
//
// The page imports exercises/ and solutions/ by their paths, as the tests do; `plugins` can put
// playAgainst(folder) (lib/redirect.ts) in front, to show another copy of the learner's files (the
// browser tests plant a wrong handler that way). Two harness imports can't run in a browser, so they are
// swapped for small stand-ins (src/shims/): 'vitest' (handler/play.ts registers tests with it; the page
// never calls that part), node:fs, node:path and node:url, which schedules.ts reads the schedules with, and
// node:worker_threads, where the watchdog (core/watchdog.ts) finds its shared memory: the page has none.
// The fs stand-in serves only schedules/, bundled by import.meta.glob, so the page loads and checks the
// schedules with the very same loader, JSON Schemas and checks as the tests.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin, type ViteDevServer } from 'vite';

const root = fileURLToPath(new URL('../', import.meta.url));
const shim = (name: string) => fileURLToPath(new URL(`./src/shims/${name}.ts`, import.meta.url));
// The ajv helpers the compiled validators import, read from the file (tools/validators.ts writes it), so a
// schema that needs another helper needs no change here.
const validatorHelpers = () =>
	[
		...readFileSync(`${root}harness/core/validators/compiled.js`, 'utf8').matchAll(
			/from '(ajv\/dist\/runtime\/[\w-]+\.js)'/g
		)
	].map((match) => match[1]!);

// cacheDir: where Vite keeps its bundle of ajv's helpers (tests give each server its own, so none share one at once).
export type PlaygroundOptions = { port?: number; plugins?: Plugin[]; cacheDir?: string };
export type Playground = { url: string; server: ViteDevServer; close: () => Promise<void> };

export async function startPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
	const server = await createServer({
		configFile: false,
		// The workbook's folder, so the page and the harness see the same paths: /exercises/…, /schedules/….
		root,
		logLevel: 'warn',
		clearScreen: false,
		plugins: options.plugins ?? [],
		cacheDir: options.cacheDir,
		resolve: {
			alias: [
				{ find: /^vitest$/, replacement: shim('vitest') },
				{ find: /^node:fs$/, replacement: shim('node-fs') },
				{ find: /^node:path$/, replacement: shim('node-path') },
				{ find: /^node:url$/, replacement: shim('node-url') },
				{ find: /^node:worker_threads$/, replacement: shim('node-worker-threads') }
			]
		},
		// The compiled validators' ajv helpers are CommonJS: bundle them once, up front.
		optimizeDeps: {
			include: validatorHelpers(),
			entries: ['playground/index.html']
		},
		server: {
			host: '127.0.0.1',
			port: options.port ?? 5173,
			strictPort: options.port !== undefined && options.port !== 0,
			watch: { ignored: ['**/go/**', '**/grader/**', '**/reports/**', '**/.stryker-tmp/**'] }
		},
		worker: { format: 'es' }
	});
	await server.listen();
	const address = server.httpServer?.address();
	const port = typeof address === 'object' && address ? address.port : options.port;
	return { url: `http://127.0.0.1:${port}/playground/`, server, close: () => server.close() };
}
