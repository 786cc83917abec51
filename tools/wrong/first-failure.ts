// A wrong solution's first failure, as the learner reads it first, must tell the lesson's story in the
// harness's words, never a test runner's bare assertion, in either language:
//
//   Vitest   "the new page must look in storage: expected { key: 'key-2', … } to deeply equal { … }"
//   go test  "Begin on a reloaded page = {Key:key-2 …}; want key-1 and the first body"
//
// The harness says a divergence as "expected X, your code Y" (or a table of the two), under a heading that
// names the schedule, the journey or the case; neither runner's idiom is among its words.
//
//   bareAssertion(message)   the line that is a runner's own assertion, or null when the story is told

// One line as both languages would say it: no Go file:line prefix, no indentation, finish() for Finish()
// and begin(edited) for Begin(edited).
export function normalised(line: string): string {
	return line
		.replace(/^\s*[\w.-]+\.go:\d+: /, '')
		.replace(/\b([A-Z])(\w*)\(/g, (_, first: string, rest: string) => `${first.toLowerCase()}${rest}(`)
		.replace(/\s+/g, ' ')
		.trim();
}

// Vitest's (chai's) "expected <got> to deeply equal <want>", "… to be null", "… not to throw …".
const vitestSays =
	/\bexpected .+ (?:not )?to (?:be|equal|deeply equal|strictly equal|have|match|contain|include|throw|satisfy)\b/;
// Go's "<call> = <got>, want <want>" (or "; want …").
const goSays = /[,;] want\b/;

export function bareAssertion(message: string): string | null {
	const [first] = message.split('\n').map(normalised).filter(Boolean);
	if (first === undefined) return '(no message)';
	return vitestSays.test(first) || goSays.test(first) ? first : null;
}
