// What a stub throws until the learner writes it.
export class NotWrittenYet extends Error {
	override name = 'NotWrittenYet';
}

// Stops with a message that says which function to write, where, where to read about it, and how to get a hint.
export function todo(what: string, file: string): never {
	const folder = file.slice(0, file.lastIndexOf('/'));
	const id = /^\d+/.exec(folder)?.[0];
	const lines = [
		`${what} is not written yet.`,
		`  write it in  exercises/${file}`,
		`  read         exercises/${folder}/README.md (what it should do, and why)`
	];
	if (id) lines.push(`  stuck?       npm run hint -- ${id}`);
	const error = new NotWrittenYet(lines.join('\n'));
	// Start the stack at the learner's stub, so the code Vitest shows is the line to replace, not this one.
	// It is written out when it is first read, not here: mapping each of its lines back to its source is most
	// of what a stub costs, and most stubs are told by their message alone (the players' stub checks).
	const trace: { stack?: string } = Object.create(error);
	Error.captureStackTrace(trace, todo);
	let stack: string | undefined;
	let written = false;
	// Deleted first: redefining the stack the constructor made would write that one out.
	delete error.stack;
	Object.defineProperty(error, 'stack', {
		configurable: true,
		get: () => {
			if (!written) [stack, written] = [withoutRunnerFrames(trace.stack), true];
			return stack;
		},
		set: (value: string | undefined) => {
			[stack, written] = [value, true];
		}
	});
	throw error;
}

// A stack without the test runner's own frames (files under node_modules/): they never help a learner, and
// Vitest reads each of their files again for every failing test, which would make a run of stubs slow.
function withoutRunnerFrames(stack: string | undefined): string | undefined {
	return stack
		?.split('\n')
		.filter((line) => !/^\s+at .*[\\/]node_modules[\\/]/.test(line))
		.join('\n');
}
