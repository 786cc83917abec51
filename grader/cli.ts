// npm run grade -- <submission>…: grades each learner's copy and writes the table, results.json and a class CSV.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { classCsv } from './csv.ts';
import { defaults, gradeClass } from './grade.ts';
import { goReference } from './go-reference.ts';
import { gradescopeResults } from './gradescope.ts';
import { classReport, progressBar } from './table.ts';

const usage = `usage: npm run grade -- [options] <submission>…

A submission is a learner's copy of the workbook, or just its exercises/ folder.

  --out <dir>              where reports go (default grades/)
  --seed <n>               seed of the held-out checks (default: a new random one, printed and stamped)
  --timeout <seconds>      wall-clock limit per exercise (default ${defaults.timeoutMs / 1000})
  --jobs <n>               exercises graded at once (default: the number of cores, ${defaults.jobs})
  --held-out-share <0..1>  share of an exercise's points on held-out checks (default ${defaults.heldOutShare})
  --points <n>             points per unit of an exercise's weight in the manifest (default ${defaults.pointsPerWeight})
  --held-out-checks <n>    held-out tests per checked function (default ${defaults.heldOutChecks})
  --held-out-runs <n>      random cases per held-out test (default ${defaults.heldOutRuns})
  --no-go                  skip the Go reference
  --gradescope <file>      one submission: write its results.json here (for Gradescope's run_autograder)`;

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
		gradescope: { type: 'string' },
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

if (values.help || positionals.length === 0) {
	console.log(usage);
	process.exit(values.help ? 0 : 2);
}
if (values.gradescope && positionals.length !== 1) {
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
	heldOutRuns: number('held-out-runs', values['held-out-runs'], defaults.heldOutRuns, positive)
};

const tty = process.stderr.isTTY;
console.error(
	`Grading ${positionals.length} submission(s), seed ${options.seed}, ${options.jobs} at a time…`
);
const go = values['no-go'] ? Promise.resolve(null) : goReference();
let grade;
try {
	grade = await gradeClass(positionals, {
		...options,
		onProgress: (done, total, label) => {
			if (tty) process.stderr.write(`\r\u001b[2K${progressBar(done, total, label)}`);
		}
	});
} catch (error) {
	// The reference solutions failing their own tests: no grade would be right, so none is written.
	console.error(`\n${error instanceof Error ? error.message : String(error)}`);
	process.exit(2);
}
if (tty) process.stderr.write('\r\u001b[2K');
const goLine = await go;

const report = classReport(grade, goLine);
console.log(report);

if (values.gradescope) {
	writeFileSync(values.gradescope, JSON.stringify(gradescopeResults(grade.graded[0]!), null, '\t'));
	console.log(`\nwrote ${values.gradescope}`);
} else {
	const out = resolve(values.out);
	for (const graded of grade.graded) {
		mkdirSync(join(out, graded.submission.name), { recursive: true });
		writeFileSync(
			join(out, graded.submission.name, 'results.json'),
			JSON.stringify(gradescopeResults(graded), null, '\t')
		);
	}
	writeFileSync(join(out, 'class.csv'), classCsv(grade));
	writeFileSync(join(out, 'report.txt'), `${report}\n`);
	console.log(
		`\nwrote ${values.out}/<learner>/results.json, ${values.out}/class.csv and ${values.out}/report.txt`
	);
}
