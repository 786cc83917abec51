// What a stub throws until the learner writes it.
export class NotWrittenYet extends Error {
	override name = 'NotWrittenYet';
}

// Stops with a message that says which function to write, where, and where to read about it.
export function todo(what: string, file: string): never {
	const folder = file.slice(0, file.lastIndexOf('/'));
	throw new NotWrittenYet(
		`${what} is not written yet. Write it in exercises/${file}; exercises/${folder}/README.md says what it should do.`
	);
}
