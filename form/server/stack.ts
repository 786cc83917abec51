// Everything `npm run form` and the browser journeys run: the endpoint, the network in front of it, and the
// page (Vite, in middleware mode), all on loopback.
//
//   const stack = await startStack({ code: 'auto' });
//   try {
//   	stack.url                     // http://127.0.0.1:<port>/  the form; /anti-pattern.html the key-per-attempt page
//   	stack.network.next(…)         // what the control panel does
//   	stack.backend.received        // what reached the endpoint
//   	await stack.fresh()           // an empty endpoint, an empty network: the next journey starts clean
//   } finally {
//   	await stack.stop();           // the page server, Vite, and the endpoint it started: nothing is left listening
//   }
//
// The page server answers:
//   /api/…                 through the network (network.ts) to the endpoint
//   GET  /network/state    the queue, the exchanges, what the endpoint received, its tickets, what is running
//   POST /network/next     {"do": "lose"} | {"do": "delay", "ms": 2000} | {"do": "answer", "status": 500 | 409}
//   POST /network/clear    forgets what was queued
//   anything else          the page, from Vite
// Every answer closes its connection, so the browser never sends a request on a reused connection (Chromium
// sends a request again by itself when a reused connection drops it, which would hide a lost answer).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { readBody } from '#harness/endpoint/server.ts';
import { createServer as createVite, type Plugin, type ViteDevServer } from 'vite';
import type { Backend } from './backend.ts';
import { startBackend, type EndpointOption } from './endpoint.ts';
import { keyStorePlugin, root, type CodeChoice } from './key-store.ts';
import { isFate, Network } from './network.ts';

export type Stack = {
	url: string;
	network: Network;
	backend: Backend;
	fresh: () => Promise<void>;
	stop: () => Promise<void>;
};

export type StackOptions = {
	code: CodeChoice;
	// Which endpoint to start ('auto' when left out), or one already running, which stop() leaves running.
	endpoint?: EndpointOption | Backend;
	// Watch the files, so an edit to submission.ts shows on the next reload (by hand, not in the journeys).
	watch?: boolean;
};

const pageDir = fileURLToPath(new URL('../', import.meta.url));

// The endpoint (or the one given), the network in front of it, and the page server with Vite behind it.
export async function startStack(options: StackOptions): Promise<Stack> {
	const given = typeof options.endpoint === 'object' ? options.endpoint : null;
	const backend = given ?? (await startBackend((options.endpoint as EndpointOption | undefined) ?? 'auto'));
	const stopBackend = () => (given ? Promise.resolve() : backend.stop());
	const network = new Network(backend.url);
	let vite: ViteDevServer | undefined;
	const server = createServer((request, response) => {
		response.shouldKeepAlive = false;
		const path = new URL(request.url ?? '/', 'http://page').pathname;
		if (path.startsWith('/api/')) return void network.forward(request, response).catch(failed(response));
		if (path.startsWith('/network/'))
			return void control(request, response, backend, network).catch(failed(response));
		vite!.middlewares(request, response);
	});
	try {
		vite = await startVite(options);
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => resolve());
		});
	} catch (error) {
		await vite?.close();
		await stopBackend();
		throw error;
	}
	const port = (server.address() as AddressInfo).port;
	const stack: Stack = {
		url: `http://127.0.0.1:${port}/`,
		network,
		backend,
		async fresh() {
			network.reset(backend.url);
			await backend.fresh();
		},
		async stop() {
			server.closeAllConnections();
			await new Promise((done) => server.close(done));
			await vite!.close();
			await stopBackend();
		}
	};
	return stack;
}

// The page from Vite, in middleware mode: the key store's code as chosen, React, and no hot reload.
function startVite(options: StackOptions): Promise<ViteDevServer> {
	return createVite({
		configFile: false,
		root: pageDir,
		appType: 'mpa',
		logLevel: 'warn',
		clearScreen: false,
		cacheDir: `${root}node_modules/.vite-form`,
		plugins: [keyStorePlugin(options.code), withoutHotReload],
		oxc: { jsx: { runtime: 'automatic' } },
		optimizeDeps: { include: ['react', 'react/jsx-runtime', 'react-dom/client'] },
		server: {
			middlewareMode: true,
			hmr: false,
			ws: false,
			watch: options.watch ? {} : null,
			fs: { allow: [root] }
		}
	});
}

// The control panel's questions: /network/state, /network/next and /network/clear (see the list above).
async function control(
	request: IncomingMessage,
	response: ServerResponse,
	backend: Backend,
	network: Network
) {
	const path = new URL(request.url ?? '/', 'http://page').pathname;
	const body = await readBody(request);
	if (request.method === 'GET' && path === '/network/state') {
		const state = {
			endpoint: backend.label,
			queue: network.queue,
			exchanges: network.exchanges,
			received: backend.received,
			tickets: await backend.tickets()
		};
		return json(response, 200, state);
	}
	if (request.method === 'POST' && path === '/network/next') {
		const fate = JSON.parse(body.toString() || 'null') as unknown;
		if (!isFate(fate)) return json(response, 400, { title: 'not a fate: lose, delay ms, answer 500 or 409' });
		network.next(fate);
		return json(response, 200, { queue: network.queue });
	}
	if (request.method === 'POST' && path === '/network/clear') {
		network.clear();
		return json(response, 200, { queue: network.queue });
	}
	json(response, 404, { title: `nothing at ${request.method} ${path}` });
}

// Hot reload is off (a reload by hand shows what sessionStorage kept), so the page needs no Vite client: without
// this, it would try a WebSocket nobody serves and fill the console with errors.
const withoutHotReload: Plugin = {
	name: 'without-hot-reload',
	transformIndexHtml: {
		order: 'post',
		handler: (html) => html.replace(/<script type="module" src="\/@vite\/client"><\/script>\s*/, '')
	}
};

function json(response: ServerResponse, status: number, value: unknown) {
	response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
	response.end(JSON.stringify(value));
}

const failed = (response: ServerResponse) => (error: unknown) => {
	if (response.headersSent) return void response.destroy();
	json(response, 500, { title: `the page server failed: ${String(error)}` });
};
