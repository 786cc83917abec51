// The program the sandbox runs for one exercise: loads the learner's files and this exercise's observers,
// plays every input the grader handed in (job.json, grader/channel/job.ts), and writes one sealed line per
// input on fd 3 (grader/channel/observations.ts, grader/inside/seal.ts):
//   <hmac> {"c":0,"i":2,"ok":<what the code did>}  or  <hmac> {"c":0,"i":2,"threw":{"name":…,"message":…}}
// Before any learner file loads, it opens the channel (the run's key read from fd 4, which is then closed),
// takes what it reads answers with (plain.ts), and locks every global that exists then: learner code may add
// globals, not replace one the harness or the observers call (structuredClone, setTimeout, fetch, …).
// For a batch (job.json is { batch: [job, …] }, grader/trusted/run-batch.ts), every exercise's observers load and
// freeze first, then the exercises are played one after the other in two passes, every one's given checks and
// then every one's held-out checks, each part opened by a sealed begin line and closed by done: no held-out input
// an exercise was handed is played before a later exercise's given checks, whose answers a report shows in full.
// It is compiled to JavaScript by grader/sandbox/compile.ts and started by grader/sandbox/sandbox.ts, with the workbook's view as
// its working directory and nothing else.
import childProcess from 'node:child_process';
import { closeSync, existsSync, readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
	partMarker,
	type BatchHeldOut,
	type BatchJob,
	type HeldOutInputs,
	type Job
} from '../channel/job.ts';
import { heldOutFd, type ObservationLine } from '../channel/observations.ts';
import { saidError, type Code, type Observers } from './observer.ts';
import { awaitable, plain } from './plain.ts';
import { openChannel } from './seal.ts';

const send = openChannel();
// Taken now: fs's exports are live bindings learner code could change (syncBuiltinESMExports), and a part's
// marker must reach no function of the learner's.
const exists = existsSync;
const here = process.cwd();
const given = JSON.parse(readFileSync(process.env.GRADE_JOB ?? '/job.json', 'utf8')) as Job | BatchJob;
const jobs = 'batch' in given ? given.batch : [given];
// The held-out inputs (and a batch's marker), read and the descriptor closed before any learner file loads:
// learner code meets each input only as it is played, after every given check has been answered.
const fromGrader = JSON.parse(readFileSync(heldOutFd, 'utf8')) as HeldOutInputs | BatchHeldOut;
closeSync(heldOutFd);
const batch = 'batch' in given ? (fromGrader as BatchHeldOut) : null;
const heldOuts = batch ? batch.heldOut : [fromGrader as HeldOutInputs];
for (const [k, job] of jobs.entries())
	for (const [c, cases] of Object.entries(heldOuts[k] ?? {}))
		if (job.checks[Number(c)]) job.checks[Number(c)]!.cases = cases;

// Every global there is now, made read-only and fixed: a learner file that assigns one fails as it loads.
// Node defines some globals lazily (a getter that loads the module and redefines the global on first use); those
// keep their getter, which is allowed to fail at redefining and read again, and lose their setter.
function lockGlobals(): void {
	for (const key of Reflect.ownKeys(globalThis)) {
		const property = Object.getOwnPropertyDescriptor(globalThis, key);
		if (!property?.configurable) continue;
		if ('value' in property) {
			Object.defineProperty(globalThis, key, { ...property, writable: false, configurable: false });
			continue;
		}
		const lazy = property.get;
		let value: unknown;
		let read = false;
		const get = () => {
			if (!read && lazy) {
				try {
					value = Reflect.apply(lazy, globalThis, []);
				} catch {
					value = Reflect.apply(lazy, globalThis, []);
				}
				read = true;
			}
			return value;
		};
		Object.defineProperty(globalThis, key, { get, enumerable: property.enumerable, configurable: false });
	}
}

function freeze(module: Record<string, unknown>): void {
	for (const value of Object.values(module)) {
		if (typeof value === 'function' && value.prototype) Object.freeze(value.prototype);
		if (value && (typeof value === 'object' || typeof value === 'function')) Object.freeze(value);
	}
}

// A learner's process.exit ends the run; the line it leaves says when, so the report can say why.
let current = 'before loading';
let finished = false;
process.on('exit', (exitCode) => {
	if (!finished) send({ exited: exitCode, while: current });
});

// The observers and every harness module they use load first and are frozen (classes' prototypes, exported
// objects): learner code, loaded after, can call them but not rewrite them. Node runs with --frozen-intrinsics too.
// In a batch, every exercise's, before the first learner file.
const observersOf: Observers[] = [];
for (const job of jobs) {
	const { observers } = (await import(
		pathToFileURL(join(here, 'inside', `${job.folder}.observe.js`)).href
	)) as {
		observers: Observers;
	};
	for (const path of job.freeze) freeze(await import(pathToFileURL(join(here, path)).href));
	freeze(observers);
	observersOf.push(observers);
}

// Learner code never needs a process of its own, nor native code: the ways to start one refuse, and tell the
// grader on the sealed channel, so a call caught and kept quiet still forfeits the exercise (the permission
// model refuses them too, and the tracer sees any process made).
const refuse = (name: string) => () => {
	send({ refused: name });
	throw new Error(`${name}: learner code may not start processes or load native code`);
};
const starters = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
for (const name of starters) Object.assign(childProcess, { [name]: refuse(`child_process.${name}`) });
Object.freeze(childProcess);
for (const name of ['binding', '_linkedBinding', 'dlopen'])
	Object.defineProperty(process, name, {
		value: refuse(`process.${name}`),
		writable: false,
		configurable: false
	});
syncBuiltinESMExports();
lockGlobals();

const run = Object.freeze({ postgres: jobs[0]?.postgres ?? null });

// The learner's files of one exercise, or null when one did not load (said on the channel).
async function load(job: Job): Promise<Code | null> {
	const code: Code = {};
	for (const file of job.files) {
		current = `while exercises/${job.folder}/${file} was loading`;
		try {
			code[file] = await import(
				pathToFileURL(join(here, 'exercises', job.folder, file.replace(/\.ts$/, '.js'))).href
			);
		} catch (error) {
			send({ load: { file, ...saidError(error) } });
			return null;
		}
	}
	return code;
}

// One line per input of the checks given (held-out ones when heldOut), in the job's order of checks.
async function play(job: Job, observers: Observers, code: Code, heldOut: boolean): Promise<void> {
	for (const [c, check] of job.checks.entries()) {
		if (check.heldOut !== heldOut) continue;
		for (const [i, input] of check.cases.entries()) {
			current = `during check ${c + 1}, case ${i + 1}`;
			let line: ObservationLine;
			try {
				line = { c, i, ok: plain(await awaitable(observers[check.observer]!(code, input, run))) };
			} catch (error) {
				line = { c, i, threw: saidError(error) };
			}
			send(line);
		}
	}
}

if (!batch) {
	const code = await load(jobs[0]!);
	if (!code) {
		finished = true;
		process.exit(0);
	}
	// Every given check first, then the held-out ones.
	await play(jobs[0]!, observersOf[0]!, code, false);
	await play(jobs[0]!, observersOf[0]!, code, true);
	send({ done: true });
	finished = true;
	process.exit(0);
}

// A batch: part n is named to the tracer (its marker, a path that is not there) and opened on the channel in
// one synchronous step, and the next marker follows a part's done line in the same step, so no learner code runs
// between a part's end and the next one's start.
let part = 0;
const begin = (k: number, heldOut: boolean) => {
	exists(partMarker(batch.marker, part++));
	send({ begin: k, heldOut });
};
const codes: (Code | null)[] = [];
for (const [k, job] of jobs.entries()) {
	begin(k, false);
	const code = await load(job);
	codes.push(code);
	if (code) await play(job, observersOf[k]!, code, false);
	send({ done: true });
}
for (const [k, job] of jobs.entries()) {
	begin(k, true);
	const code = codes[k];
	if (code) await play(job, observersOf[k]!, code, true);
	send({ done: true });
}
exists(partMarker(batch.marker, part));
finished = true;
process.exit(0);
