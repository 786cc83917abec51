// npm run grade:report -- <folder>: the class page again, from the results.json files under <folder> (a
// grading's grades/, or what Gradescope or GitHub Classroom let an instructor download), each learner named by
// its folder's path there. Writes <folder>/class.html.
import { join } from 'node:path';
import { classPage } from './class-page.ts';
import { readResults, viewOfResults } from './class-view.ts';
import { writeAtomically } from './output.ts';

const folder = process.argv[2];
if (!folder || folder === '--help') {
	console.error('usage: npm run grade:report -- <folder with results.json files, one per learner folder>');
	process.exit(2);
}
const found = readResults(folder);
if (found.length === 0) {
	console.error(`no results.json under ${folder}`);
	process.exit(2);
}
writeAtomically(join(folder, 'class.html'), classPage(viewOfResults(found)));
console.log(`wrote ${join(folder, 'class.html')} (${found.length} learners)`);
