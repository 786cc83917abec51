// npm run grade -- <submission>…: grades each learner's copy and writes the table, results.json and a class CSV.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { classPage } from './class-page.ts';
import { sandboxName, viewOfGrade } from './class-view.ts';
import { classCsv } from './csv.ts';
import { exercises as manifestExercises } from '#harness/core/manifest.ts';
import { findSandbox } from '../sandbox/sandbox.ts';
import { defaults, gradeClass, type ClassGrade, type Graded } from './grade.ts';
import { goReference } from './go-reference.ts';
import { gradescopeResults } from './gradescope.ts';
import { writeAtomically, writeLearner } from './output.ts';
import { oneLine } from './shown.ts';
import { classReport, progressBar } from './table.ts';

const usage = `usage: npm run grade -- [options] <submission>…
       npm run grade -- [options] --class <folder>

A submission is a learner's copy of the workbook, or just its exercises/ folder. With --class, every folder
in <folder> is one; either way a learner's name is the path relative to the class folder.

  --out <dir>              where reports go (default grades/)
  --seed <n>               seed of the held-out checks (default: a new random one, printed and stamped)
  --timeout <seconds>      wall-clock limit per exercise (default ${defaults.timeoutMs / 1000})
  --jobs <n>               exercises graded at once (default: the number of cores, ${defaults.jobs})
  --held-out-share <0..1>  share of an exercise's points on held-out checks (default ${defaults.heldOutShare})
  --points <n>             points per unit of an exercise's weight in the manifest (default ${defaults.pointsPerWeight})
  --held-out-checks <n>    held-out tests per checked function (default ${defaults.heldOutChecks})
  --held-out-runs <n>      random cases per held-out test (default ${defaults.heldOutRuns})
  --no-go                  skip the Go reference
  --no-batch               every exercise a run of its own (by default a submission's exercises without a
                           database share one run, where runs are traced: grader/README.md, Batched runs)
  --gradescope <file>      one submission: write its results.json here (for Gradescope's run_autograder)
  --class <folder>         grade every folder in it, named by its folder
  --names-from <folder>    name learners by their path relative to this folder (default: the one they share)
  --memory <MB>            memory for one exercise run's whole process tree (default ${defaults.memoryMb})
  --expectations <file>    frozen expectations (from npm run grade:package): no solutions/ needed
  --unsafe-no-sandbox      run learner code without bubblewrap; every row of the report says so
  --untraced               run it in bubblewrap without strace (where ptrace is not allowed): attempts that
                           fail quietly are not seen, and every report says so`;

const { values, positionals } = parseArgs({
	allowPositionals: true,
	options: {
		out: { type: 'string', default: 'grades' },
		seed: { type: 'string' },
		timeout: { type: 'string' },
		jobs: { type: 'string' },
		'held-out-share': { type: 'string' },
		points: { type: 'string' },
		'held-out-checks': { type: 'string' },
		'held-out-runs': { type: 'string' },
		'no-go': { type: 'boolean', default: false },
		'no-batch': { type: 'boolean', default: false },
		gradescope: { type: 'string' },
		class: { type: 'string' },
		'names-from': { type: 'string' },
		memory: { type: 'string' },
		expectations: { type: 'string' },
		'unsafe-no-sandbox': { type: 'boolean', default: false },
		untraced: { type: 'boolean', default: false },
		help: { type: 'boolean', default: false }
	}
});

function number(
	name: string,
	text: string | undefined,
	fallback: number,
	check: (n: number) => boolean
): number {
	if (text === undefined) return fallback;
	const value = Number(text);
	if (!Number.isFinite(value) || !check(value)) {
		console.error(`--${name} ${text}: not a valid value\n\n${usage}`);
		process.exit(2);
	}
	return value;
}

const classFolder = values.class ? resolve(values.class) : undefined;
const namesFrom = values['names-from'] ? resolve(values['names-from']) : classFolder;
// With --class, its folders in name order; links and files in it are graded too, and refused with the reason.
const paths = classFolder
	? readdirSync(classFolder)
			.sort()
			.map((name) => join(classFolder, name))
	: positionals;
if (values.help || paths.length === 0) {
	console.log(usage);
	process.exit(values.help ? 0 : 2);
}
if (values.gradescope && paths.length !== 1) {
	console.error('--gradescope takes exactly one submission');
	process.exit(2);
}

const positive = (n: number) => n > 0;
const options = {
	seed: number('seed', values.seed, Math.floor(Math.random() * 2 ** 31), Number.isInteger),
	timeoutMs: number('timeout', values.timeout, defaults.timeoutMs / 1000, positive) * 1000,
	jobs: number('jobs', values.jobs, defaults.jobs, (n) => Number.isInteger(n) && n > 0),
	heldOutShare: number(
		'held-out-share',
		values['held-out-share'],
		defaults.heldOutShare,
		(n) => n >= 0 && n <= 1
	),
	pointsPerWeight: number('points', values.points, defaults.pointsPerWeight, positive),
	heldOutChecks: number(
		'held-out-checks',
		values['held-out-checks'],
		defaults.heldOutChecks,
		Number.isInteger
	),
	heldOutRuns: number('held-out-runs', values['held-out-runs'], defaults.heldOutRuns, positive),
	memoryMb: number('memory', values.memory, defaults.memoryMb, (n) => Number.isInteger(n) && n >= 64),
	unsafe: values['unsafe-no-sandbox'],
	untraced: values.untraced,
	batch: !values['no-batch'],
	...(namesFrom ? { classFolder: namesFrom } : {})
};
const frozen = values.expectations ? JSON.parse(readFileSync(values.expectations, 'utf8')) : undefined;
if (frozen) options.seed = frozen.settings.seed;
if (frozen) options.heldOutChecks = frozen.settings.checks;
if (frozen) options.heldOutRuns = frozen.settings.runs;

const tty = process.stderr.isTTY;
console.error(`Grading ${paths.length} submission(s), seed ${options.seed}, ${options.jobs} at a time…`);
const go = values['no-go'] ? Promise.resolve(null) : goReference();
const out = resolve(values.out);
// Every learner graded so far, in the order they finished: what the class files hold if grading stops midway.
const gradedSoFar: Graded[] = [];
// The learners whose results.json could not be written (a full disk, a folder in the way): report.txt says so,
// rather than that every one was written.
const notWritten: string[] = [];
const notWrittenLines = () => notWritten.map((line) => `${line}\n`).join('');
const started = Date.now();

// Grading stopped (an error no run caught, or the reference failing its own checks): the learners already
// graded keep their results.json, and the class files are written with them and say why the rest are not.
function stopped(error: unknown): never {
	const why = error instanceof Error ? error.message : String(error);
	console.error(`\n${why}`);
	if (gradedSoFar.length && !values.gradescope) {
		let sandbox: ClassGrade['sandbox'];
		try {
			sandbox = findSandbox({ unsafe: options.unsafe ?? false, untraced: options.untraced });
		} catch {
			sandbox = { bwrap: null, strace: null, memoryLimit: 'none' };
		}
		const partial: ClassGrade = {
			graded: [...gradedSoFar],
			exercises: manifestExercises(),
			refused: [],
			unchecked: [],
			sandbox,
			seconds: (Date.now() - started) / 1000,
			runs: 0
		};
		const line = `grading stopped after ${gradedSoFar.length} of ${paths.length} submissions: ${why.split('\n')[0]}`;
		writeAtomically(join(out, 'class.csv'), classCsv(partial));
		writeAtomically(join(out, 'report.txt'), `${classReport(partial, null)}\n${notWrittenLines()}${line}\n`);
		console.error(`${line}\nwrote ${values.out}/class.csv and ${values.out}/report.txt for them`);
	}
	process.exit(2);
}
process.on('uncaughtException', stopped);
process.on('unhandledRejection', stopped);

let grade;
try {
	grade = await gradeClass(paths, {
		...options,
		...(frozen ? { frozen } : {}),
		// Each learner's results.json is written the moment that learner is done, whatever happens later.
		onGraded: (graded) => {
			gradedSoFar.push(graded);
			if (values.gradescope) return;
			try {
				writeLearner(out, graded.submission.name, gradescopeResults(graded));
			} catch (error) {
				const why = error instanceof Error ? error.message : String(error);
				notWritten.push(`results.json not written for ${oneLine(graded.submission.name)}: ${oneLine(why)}`);
			}
		},
		onProgress: (done, total, label) => {
			if (tty) process.stderr.write(`\r\u001b[2K${progressBar(done, total, label)}`);
		}
	});
} catch (error) {
	// The reference solutions failing their own checks, or no sandbox: no grade would be right, so none is
	// written; a failure after some learners were graded still writes theirs.
	stopped(error);
}
if (tty) process.stderr.write('\r\u001b[2K');
const goLine = await go;

const report = classReport(grade, goLine);
console.log(report);

if (values.gradescope) {
	const graded = grade.graded[0];
	if (!graded) {
		console.error(`\nnot graded: ${grade.refused[0]?.reason}`);
		process.exit(2);
	}
	writeAtomically(values.gradescope, JSON.stringify(gradescopeResults(graded), null, '\t'));
	console.log(`\nwrote ${values.gradescope}`);
} else {
	writeAtomically(join(out, 'class.csv'), classCsv(grade));
	writeAtomically(join(out, 'report.txt'), `${report}\n${notWrittenLines()}`);
	writeAtomically(join(out, 'class.html'), classPage(viewOfGrade(grade, sandboxName(grade))));
	// A learner without results.json has no grade for the gradebook: the run did not do all it was asked.
	if (notWritten.length) {
		console.error(`\n${notWrittenLines().trimEnd()}`);
		process.exitCode = 1;
	}
	const but = notWritten.length ? ` (but for ${notWritten.length}: see report.txt)` : '';
	console.log(
		`\nwrote ${values.out}/<learner>/results.json${but}, ${values.out}/class.csv, ${values.out}/report.txt and ${values.out}/class.html`
	);
}
