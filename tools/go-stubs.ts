// Each Go stub on its own, for npm run verify: a learner who has written every function of an exercise but
// one reads that stub's story once, and no panic. For every stub of every Go exercise (a function of a learner
// file whose body is panic(Todo(…))), the solution is played with that one function stopped at its stub: the
// stub's panic put first in the solution's body, read in place of the learner's file with -overlay.
//
//   goEachStubToldOnce()   every stub so: its package fails, its story told by one test, no other story
//                          and no panic in the output (core.Written's one-line pointers are the rest)
//
// It answers as verify's steps do: how many passed, how many failed, and the problems in words.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goExercises } from '#harness/core/manifest.ts';
import { goDir, goTest, solutionsOverlay } from '../lib/go-test.ts';
import type { Checked } from './go-track.ts';

type Stub = { folder: string; file: string; receiver: string; name: string; todo: string };

// A stub in the shipped file: func (h *TicketHandler) Handle(…) … {\n\tpanic(Todo("…", "…"))\n}
const stubFunction =
	/^func (?:\(\w+ \*?(\w+)(?:\[[^\]]*\])?\) )?(\w+)(?:\[[^\]]*\])?\(.*\{\n\tpanic\((?:core\.)?Todo\(("[^"]*", "[^"]*")\)\)\n\}/gm;

function stubsOf(folder: string, file: string): Stub[] {
	const text = readFileSync(join(goDir, 'exercises', folder, file), 'utf8');
	return [...text.matchAll(stubFunction)].map(([, receiver = '', name, todo]) => ({
		folder,
		file,
		receiver,
		name: name!,
		todo: todo!
	}));
}

// The solution's text with the stub's function stopped first thing, as the shipped stub stops; null when the
// solution has no such function.
function stoppedAt(stub: Stub, solution: string): string | null {
	const receiver = stub.receiver ? `\\(\\w+ \\*?${stub.receiver}(?:\\[[^\\]]*\\])?\\) ` : '';
	const opening = new RegExp(`^func ${receiver}${stub.name}(?:\\[[^\\]]*\\])?\\(.*\\{$`, 'm').exec(solution);
	if (!opening) return null;
	const at = opening.index + opening[0].length;
	const stopped = `${solution.slice(0, at)}\n\tpanic(stubcore.Todo(${stub.todo}))${solution.slice(at)}`;
	return stopped.replace(/^package \w+\n/m, (line) => `${line}\nimport stubcore "workbook/core"\n`);
}

const storyOf = /(\S+) is not written yet\.\n\s*write it in /g;

async function toldOnce(stub: Stub, folder: string): Promise<string | null> {
	const said = `go/exercises/${stub.folder}/${stub.file}: ${stub.receiver ? `${stub.receiver}.` : ''}${stub.name} alone a stub`;
	const replace = solutionsOverlay();
	const learnerFile = join(goDir, 'exercises', stub.folder, stub.file);
	const stopped = stoppedAt(stub, readFileSync(replace[learnerFile]!, 'utf8'));
	if (!stopped) return `${said}: the solution has no such function to stop`;
	const path = join(folder, `${stub.folder}-${stub.name}.go`);
	writeFileSync(path, stopped);
	replace[learnerFile] = path;
	const report = await goTest(goDir, 120_000, {
		replace,
		packages: [`./exercises/${stub.folder}`],
		postgres: false
	});
	const failed = report.tests.filter((test) => test.status === 'failed');
	const output = failed.map((test) => test.output).join('\n');
	const stories = [...output.matchAll(storyOf)].map(([, what]) => what!);
	const what = JSON.parse(`[${stub.todo}]`)[0] as string;
	if (failed.length === 0) return `${said}: its package passes\n${report.problems.join('\n')}`;
	if (output.includes('panic:')) return `${said}: a test panicked:\n${output}`;
	if (stories.length !== 1 || stories[0] !== what)
		return `${said}: ${stories.length} stories told (${stories.join(', ') || 'none'}), want ${what}'s once:\n${output}`;
	return null;
}

export async function goEachStubToldOnce(): Promise<Checked> {
	const stubs = goExercises().flatMap((exercise) =>
		exercise.goLearnerFiles.flatMap((file) => stubsOf(exercise.folder, file))
	);
	const folder = mkdtempSync(join(tmpdir(), 'workbook-go-stubs-'));
	const problems: (string | null)[] = [];
	try {
		// Two at a time: each is mostly building and linking one test binary, one core each.
		let next = 0;
		const worker = async () => {
			while (next < stubs.length) {
				const i = next++;
				problems[i] = await toldOnce(stubs[i]!, folder);
			}
		};
		await Promise.all([worker(), worker()]);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
	if (stubs.length === 0)
		problems.push('no Go stub found in go/exercises: the pattern above no longer reads them');
	return {
		passed: problems.filter((problem) => problem === null).length,
		failed: problems.filter((problem) => problem !== null).length,
		problems: problems.filter((problem): problem is string => problem !== null)
	};
}
