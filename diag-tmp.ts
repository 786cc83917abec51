import { cpSync, mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gradeClass } from './grader/trusted/grade.ts';
import { wrongSolution, writeWrongSolution } from './lib/wrong-solutions.ts';
const dir = mkdtempSync(join(tmpdir(), 'diag-'));
const names = process.argv.slice(2);
const paths = names.map((name) => {
	const p = join(dir, name, 'exercises'); mkdirSync(p, { recursive: true });
	cpSync('exercises', p, { recursive: true }); cpSync('solutions', p, { recursive: true, filter: (f) => !f.includes('/wrong') });
	if (name !== 'right') writeWrongSolution(wrongSolution(name), p);
	return join(dir, name);
});
const t = Date.now();
const grade = await gradeClass(paths, { seed: 3, classFolder: dir });
for (const g of grade.graded) console.log(g.submission.name, g.score, JSON.stringify(g.diagnoses));
console.log('seconds', (Date.now() - t) / 1000);
