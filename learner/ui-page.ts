// The Vitest UI's page as npm run ui serves it: the UI's own page with learner/ui-page.css added to its head.
//
//   plugins: [workbookStyle()] // in learner/vitest.ui.config.ts
//
// Vitest's UI serves its page from a server middleware of its own (it writes the page's token into it), not
// through Vite's index.html hooks; this middleware goes first and adds the style as that page is written.
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { Plugin } from 'vitest/config';

const style = readFileSync(new URL('./ui-page.css', import.meta.url), 'utf8');

export function workbookStyle(): Plugin {
	// The page's address under the server: Vitest's --ui.base, "/__vitest__/" unless asked otherwise.
	let base = '/__vitest__/';
	return {
		name: 'workbook-style',
		configureVitest({ vitest }) {
			base = vitest.config.uiBase;
		},
		configureServer(server) {
			server.middlewares.use((request, response, next) => {
				const { pathname } = new URL(request.url ?? '/', 'http://localhost');
				if (pathname === base) addStyle(response);
				next();
			});
		}
	};
}

function addStyle(response: ServerResponse): void {
	const write = response.write.bind(response) as (chunk: unknown, ...rest: unknown[]) => boolean;
	response.write = ((chunk: unknown, ...rest: unknown[]) =>
		write(
			typeof chunk === 'string' ? chunk.replace('</head>', `<style>\n${style}</style>\n</head>`) : chunk,
			...rest
		)) as typeof response.write;
}
