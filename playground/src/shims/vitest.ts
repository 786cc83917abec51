// Stands in for 'vitest' in the page: handler/play.ts and race/play.ts register tests with describe() and
// it(), which the page never calls. The page imports only their players and judges.
function notHere(name: string): never {
	throw new Error(`${name}() registers a test; the playground only plays and judges, it runs no tests`);
}

export const describe = (..._args: unknown[]) => notHere('describe');
export const it = (..._args: unknown[]) => notHere('it');
