// What a failed assertion says on the short report: Vitest's message without its noise, and its diff only
// when the diff shows more than the message does.
//
//   assertionSaid('n: expected 1 to be +0 // Object.is equality', diff)   // 'n: expected 1 to be 0'
//
// "// Object.is equality" names how toBe compares, which a learner does not need; "+0" is how Vitest prints a
// zero. A diff of two values on one line each (true and false, 1 and 0) repeats what the message said.

// The diff's body is one expected line and one received line, neither an object nor a list.
function diffRepeatsMessage(diff: string): boolean {
	const body = diff.split('\n').filter((line) => line.trim() && !/^[-+] (Expected|Received)$/.test(line));
	const [expected, received] = body;
	const value = (line: string | undefined, sign: string) =>
		line?.startsWith(`${sign} `) && !/^[-+]\s*[{[]/.test(line);
	return body.length === 2 && Boolean(value(expected, '-')) && Boolean(value(received, '+'));
}

export function assertionSaid(message: string, diff: string): string {
	const said = message.replace(/ \/\/ Object\.is equality/g, '').replace(/ to be \+0\b/g, ' to be 0');
	return diff && !diffRepeatsMessage(diff) ? `${said}\n\n${diff}` : said;
}
