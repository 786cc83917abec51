// @ts-nocheck
// Hostile, quietly: tries the reference's handler by the checkout's absolute path, keeps quiet when that fails,
// and answers right with a handler of its own (the reference's code, below).
// {{SOLUTION}}
try {
	await import('{{ROOT}}/solutions/01-first-handler/handler.ts');
} catch {}
