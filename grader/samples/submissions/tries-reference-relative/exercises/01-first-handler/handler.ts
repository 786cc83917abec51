// @ts-nocheck
// Hostile, quietly: climbs out with many ../ for the reference's handler, keeps quiet when that fails, and
// answers right with a handler of its own (the reference's code, below).
// {{SOLUTION}}
try {
	await import('../../../../../../../../solutions/01-first-handler/handler.ts');
} catch {}
