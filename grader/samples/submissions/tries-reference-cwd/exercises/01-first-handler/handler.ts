// @ts-nocheck
// Hostile, quietly: looks for the reference from the working directory, keeps quiet when that fails, and
// answers right with a handler of its own (the reference's code, below).
// {{SOLUTION}}
try {
	await import(`${process.cwd()}/solutions/01-first-handler/handler.ts`);
} catch {}
