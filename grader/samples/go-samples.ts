// The Go track's sample submissions: honest Go learners, and hostile Go code, each pinned like the TypeScript
// samples (samples.ts): its score on each exercise, and one line of what the report says about it. A Go
// sample is a learner's copy holding go/exercises/ (and no TypeScript of its own unless `base` says so): the
// Go solutions of `go.solved`, the shipped Go stubs elsewhere, then its files under submissions/<name>/ on
// top (a "// {{SOLUTION}}" line in one is the Go solution, spliced in: go-samples-splice.ts), and `go.patch`
// applied (a wrong solution of go/solutions/wrong/, as the learner made it).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyHunks, parsePatch } from '../../lib/patch.ts';
import { root } from '../sandbox/paths.ts';
import type { Sample } from './samples.ts';

// The exercises the Go grader observes (go/grader/observe/<folder>/): every one.
const goGraded = ['01', '02', '03', '04', '05', '06', '07'];
const solvedInGo = { go: { solved: goGraded } };
const zeroAt01 = {
	scores: {
		'01': 'zero' as const,
		'02': 'full' as const,
		'03': 'full' as const,
		'04': 'full' as const,
		'05': 'full' as const,
		'06': 'full' as const,
		'07': 'full' as const
	},
	rest: 'zero' as const
};
const allFull = {
	scores: {
		'01': 'full' as const,
		'02': 'full' as const,
		'03': 'full' as const,
		'04': 'full' as const,
		'05': 'full' as const,
		'06': 'full' as const,
		'07': 'full' as const
	},
	rest: 'zero' as const
};
const forfeits = (why: string) => new RegExp(`01: 0 for this exercise: ${why}`);

// A wrong Go solution applied to the learner's Go file, as it would be in their copy.
function wrongPatch(...names: string[]) {
	return (folder: string) => {
		for (const name of names) {
			const text = readFileSync(join(root, 'go', 'solutions', 'wrong', `${name}.patch`), 'utf8');
			for (const file of parsePatch(text, name).files) {
				const target = join(folder, file.path.replace(/^go\/solutions\//, 'go/exercises/'));
				writeFileSync(target, applyHunks(readFileSync(target, 'utf8'), file, name));
			}
		}
	};
}

export const goSamples: Sample[] = [
	{
		name: 'go-complete',
		story: 'a Go learner: every exercise solved in Go (the Go solutions), no TypeScript',
		kind: 'honest',
		base: 'nothing',
		...solvedInGo,
		...allFull,
		says: /^go-complete +✔ 10\/10 +✔ 10\/10 +✔ 20\/20 +✔ 10\/10 +✔ 10\/10 +✔ 20\/20 +✔ 10\/10/m
	},
	{
		name: 'go-partial',
		story:
			"a Go learner whose SameEvent runs the identity's fields together, whose atomic handler answers a unique violation with the error, whose key store makes a new key per attempt, whose relay marks a row sent before sending it and whose endpoint saves the key in a transaction of its own (the Go wrong solutions identity-run-together, error-on-unique-violation, new-key-per-attempt, mark-before-send and key-saved-in-its-own-transaction)",
		kind: 'honest',
		base: 'nothing',
		...solvedInGo,
		setup: wrongPatch(
			'identity-run-together',
			'error-on-unique-violation',
			'new-key-per-attempt',
			'mark-before-send',
			'key-saved-in-its-own-transaction'
		),
		scores: {
			'01': 'full',
			'02': 'some',
			'03': 'some',
			'04': 'some',
			'05': 'some',
			'06': 'some',
			'07': 'full'
		},
		rest: 'zero',
		says: /06: A random case the tests do not ship \(held-out, case \d+ of \d+\):/
	},
	{
		name: 'go-left-open',
		story:
			'a Go learner whose atomic handler answers a repeat from inside its transaction, never committed (the Go wrong solution replay-without-commit)',
		kind: 'honest',
		base: 'nothing',
		...solvedInGo,
		setup: wrongPatch('replay-without-commit'),
		scores: {
			'01': 'full',
			'02': 'full',
			'03': 'some',
			'04': 'full',
			'05': 'full',
			'06': 'full',
			'07': 'full'
		},
		rest: 'zero',
		says: /\n {2}03: delivery 2 .* of schedule "lost-acknowledgment" \(worker B\):\n +replay-without-commit: your answers match it on (\d+) of \1 inputs where/
	},
	{
		name: 'go-untouched',
		story: 'the Go stubs as shipped: nothing changed, so nothing is graded in Go',
		kind: 'honest',
		base: 'nothing',
		go: { solved: [] },
		rest: 'zero',
		says: /01: not executed: not submitted: exercises\/01-first-handler\/handler\.ts/
	},
	{
		name: 'both-languages',
		story:
			'02 solved in TypeScript and, with the identity-run-together mistake, in Go; 03, 05 and 06 solved in both; 07 in Go alone; 01 in TypeScript alone',
		kind: 'honest',
		base: 'stubs',
		solved: ['01', '02', '03', '05', '06'],
		go: { solved: ['02', '03', '05', '06', '07'] },
		setup: wrongPatch('identity-run-together'),
		scores: { '01': 'full', '02': 'full', '03': 'full', '05': 'full', '06': 'full', '07': 'full' },
		rest: 'zero',
		says: /02: graded in both: TypeScript 10\/10, Go [\d.]+\/10; TypeScript's counts/
	},
	{
		name: 'go-db-elsewhere',
		story:
			"06 solved, and an init() that opens connections of its own with the run's password from job.json: to the cluster's other databases (postgres, template1, template0) and as its superuser; it stops if one opens",
		kind: 'database',
		base: 'nothing',
		go: { solved: ['06'] },
		scores: { '06': 'full' },
		rest: 'zero',
		says: /^go-db-elsewhere( +(✘ 0\/\d+|–))* +✔ 20\/20/m
	},
	{
		name: 'go-db-connections',
		story:
			'06 solved, and an init() that fills every connection slot of its PostgreSQL with connections that never log in, reopened when dropped',
		kind: 'database',
		base: 'nothing',
		go: { solved: ['06'] },
		scores: { '06': 'some' },
		rest: 'zero',
		says: /06: your code threw Error: the run's PostgreSQL (said: sorry, too many clients already|could not be reached: .*)/
	},
	{
		name: 'go-reference-import',
		story: "imports the reference's Go package (workbook/solutions/01-first-handler) and answers with it",
		kind: 'reference',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: forfeits(
			'go/exercises/01-first-handler/handler\\.go imports workbook/solutions/01-first-handler: only the harness'
		)
	},
	{
		name: 'go-reference-read',
		story:
			"reads the reference's Go file from the grader's checkout, keeps quiet when it cannot, answers right",
		kind: 'reference',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: forfeits(
			'its code tried to reach <grader>/go/solutions/01-first-handler/handler\\.go, outside its sandbox'
		)
	},
	{
		name: 'go-os-exec',
		story: 'starts /usr/bin/true with os/exec in Handle, ignores the error, answers right',
		kind: 'class',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: forfeits('its code tried to reach a (new process|program)')
	},
	{
		name: 'go-cgo',
		story: 'a C function through cgo (import "C")',
		kind: 'class',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: forfeits(
			'go/exercises/01-first-handler/handler\\.go imports "C" \\(cgo\\), which learner code may not use'
		)
	},
	{
		name: 'go-linkname',
		story: "the observer's key named through //go:linkname",
		kind: 'channel',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: forfeits('go/exercises/01-first-handler/handler\\.go has a //go:linkname directive')
	},
	{
		name: 'go-unsafe',
		story: 'a pointer to any memory of the process, through unsafe',
		kind: 'channel',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: forfeits(
			'go/exercises/01-first-handler/handler\\.go imports unsafe, which learner code may not use'
		)
	},
	{
		name: 'go-channel-send',
		story: "imports the observer's pen (workbook/channel) and sends its own sealed line from init()",
		kind: 'channel',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: forfeits('go/exercises/01-first-handler/handler\\.go imports workbook/channel: only the harness')
	},
	{
		name: 'go-import-comment',
		story:
			'the observer\'s pen (workbook/channel) imported after a ")" in a comment of its import block, and a sealed line sent from init()',
		kind: 'channel',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: forfeits('go/exercises/01-first-handler/handler\\.go imports workbook/channel: only the harness')
	},
	{
		name: 'go-reflect-pointer',
		story: "a pointer to any address without importing unsafe, through reflect's UnsafePointer and NewAt",
		kind: 'channel',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: forfeits(
			'go/exercises/01-first-handler/handler\\.go imports reflect, which learner code may not use'
		)
	},
	{
		name: 'go-init-forged',
		story: "an init() that writes a line like the observer's (and done) on fd 3 before the observer runs",
		kind: 'channel',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: forfeits("its code wrote on the grader's observation channel \\(line 1 is not the observer's\\)")
	},
	{
		name: 'go-init-descriptors',
		story: 'an init() that reads fd 4 (the key) and fd 5 (the held-out inputs), and stops if it got anything',
		kind: 'channel',
		base: 'nothing',
		...solvedInGo,
		...allFull,
		says: /^go-init-descriptors +✔ 10\/10/m
	},
	{
		name: 'go-init-exit',
		story: 'an init() that ends the process before the observer plays anything',
		kind: 'channel',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: /01: not executed: the run exited \(code 3\) before it reported/
	},
	{
		name: 'go-given-import',
		story:
			"02 in Go whose SameEvent and Replay call go/handler's, the answers handed on from 03 (the rest of 02 the solution's)",
		kind: 'reference',
		base: 'nothing',
		...solvedInGo,
		scores: { ...allFull.scores, '02': 'zero' },
		rest: 'zero',
		says: /02: 0 for this exercise: go\/exercises\/02-same-event\/handler\.go imports exercise 02's answer, handed on from 03: write your own \(go\/handler\/replay\.go\)/
	},
	{
		name: 'go-replace',
		story: 'its own go.mod, with a replace directive pointing workbook/core at a core of its own',
		kind: 'reference',
		base: 'nothing',
		...solvedInGo,
		...allFull,
		says: /Ignored \(only the learner files are graded\): .*go\/go\.mod \(edited\)/
	},
	{
		name: 'go-huge-build',
		story: 'string constants that double 40 times: a compile that would need terabytes',
		kind: 'class',
		base: 'nothing',
		...solvedInGo,
		...zeroAt01,
		says: /01: not executed: does not build: the Go build passed \d+ (MB|s) and was stopped/
	}
];
