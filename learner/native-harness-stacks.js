// A setup file of the learner's runs whose harness Node loads natively (learner/native-harness.ts): the test
// thread's stack lines through a built harness module name its source, harness/…/x.ts, at the line and column
// of the source, as they do when Vitest builds the module. Vite's stack-line interceptor, which maps the lines
// of the modules Vitest built, is told where the built modules' inline maps are. Plain JavaScript, loaded by
// Node as it is, once in each thread.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ModuleRunner } from 'vite/module-runner';

const once = Symbol.for('idempotency-workbook.native-harness-stacks');
const built = /[\\/]\.learner[\\/]native-harness[\\/]/;
const retrieveFile = (path) => {
	if (!built.test(path)) return null;
	try {
		return readFileSync(path.startsWith('file:') ? fileURLToPath(path) : path, 'utf8');
	} catch {
		return null;
	}
};

if (!globalThis[once]) {
	globalThis[once] = true;
	// A runner that never runs a module: made for its interceptor alone.
	const transport = { invoke: async () => ({ error: new Error('not a runner') }) };
	new ModuleRunner({ transport, hmr: false, sourcemapInterceptor: { retrieveFile } });
}
