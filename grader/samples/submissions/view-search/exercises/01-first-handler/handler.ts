// @ts-nocheck
// Curious, not hostile: looks for the grader's checkout and temporary folders everywhere the sandbox lets it
// look (its environment, arguments, working folder, every file of its view, its own /proc files, a stack, the
// PostgreSQL socket's folder) and fails to load, saying where, if it finds one; else answers right.
// {{SOLUTION}}
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
// The grader's folders' names, put together here so that this file's own text does not hold them.
const wanted = [
	'{{ROOT}}',
	'{{CLASS}}',
	...['view', 'harness', 'postgres', 'trace'].map((what) => `grade-${what}-`)
];
const places = [];
const look = (where, text) => {
	for (const one of wanted) if (String(text).includes(one)) places.push(`${where} (${one})`);
};
look('environment', JSON.stringify(process.env));
look('arguments', JSON.stringify([process.argv, process.execArgv, process.execPath]));
look('working folder', `${process.cwd()} ${realpathSync(process.cwd())}`);
look('a stack', new Error('where').stack);
look('this module', import.meta.url);
for (const file of ['cmdline', 'environ', 'cgroup', 'status', 'stat', 'maps', 'mounts', 'limits'])
	look(`/proc/self/${file}`, readFileSync(`/proc/self/${file}`, 'latin1'));
const walk = (folder) => {
	for (const name of readdirSync(folder)) {
		const path = join(folder, name);
		look('a file name', path);
		const stat = statSync(path, { throwIfNoEntry: false });
		if (stat?.isDirectory()) walk(path);
		else if (stat?.isFile() && stat.size < 4_000_000 && !learnerFiles.has(path))
			look(path, readFileSync(path, 'latin1'));
	}
};
// Its own exercise's folder only: the others are not its to look at (that would be an attempt).
// And the database's socket folder, for a run that has one.
const job = JSON.parse(readFileSync('/wb/job.json', 'utf8'));
const own = `/wb/exercises/${job.folder}`;
// Its own files hold {{ROOT}} and {{CLASS}}, written there by the sample's maker: not looked in.
const learnerFiles = new Set(job.files.map((file) => join(own, file.replace(/\.ts$/, '.js'))));
for (const folder of ['/wb/inside', '/wb/channel', '/wb/harness', own, '/wb/schedules', '/tmp'])
	if (existsSync(folder)) walk(folder);
if (job.postgres) walk(job.postgres.host);
look('/wb/job.json', JSON.stringify(job));
if (places.length) throw new Error(`FOUND ${places.join('; ')}`);
