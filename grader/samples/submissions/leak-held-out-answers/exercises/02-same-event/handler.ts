// @ts-nocheck
// Hostile: replay answers as the reference does, plus every held-out input it was handed (read from job.json), as JSON, in
// base64 and as character codes, so a judge's message that quotes the answer would carry them all out.
// {{SOLUTION}}
import { readFileSync } from 'node:fs';
const job = JSON.parse(readFileSync(process.env.GRADE_JOB, 'utf8'));
const inputs = JSON.stringify(
	job.checks.filter((check) => check.observer === 'replay').map((check) => check.cases)
);
// The reference's replay, renamed `right` by the sample's setup.
export function replay(receipt, event) {
	return {
		...right(receipt, event),
		leak: inputs,
		base64: Buffer.from(inputs).toString('base64'),
		codes: [...inputs].map((character) => character.charCodeAt(0)),
		[inputs]: true
	};
}
