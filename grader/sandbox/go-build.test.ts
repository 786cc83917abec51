// The Go build's rules on hand-written files, and its bounds on a compile that would never end.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { cgroupsWork } from './cgroups.ts';
import { buildGo, goImports, goRefusal, parseListed, removeGoBuild } from './go-build.ts';
import { root } from './paths.ts';

const first = exercises().find((exercise) => exercise.id === '01')!;
const solution = readFileSync(join(root, 'go', 'solutions', '01-first-handler', 'handler.go'), 'utf8');
// Constants that double 40 times: the compiler would hold some 16 TB.
const doubling = [
	'const s0 = "xxxxxxxxxxxxxxxx"',
	...Array.from({ length: 40 }, (_, i) => `const s${i + 1} = s${i} + s${i}`),
	'var huge = len(s40)'
].join('\n');
const files = (text: string) => new Map([['01-first-handler/handler.go', text]]);

describe('what a learner Go file may not do, read before it is built', () => {
	it('reads single imports, blocks, named and dot imports, and skips block comments', () => {
		const text =
			'package x\n/* import "unsafe" */\nimport "os"\nimport (\n\tf "fmt"\n\t. "workbook/core"\n\t_ "embed"\n)\n';
		expect(goImports(text)).toEqual(['os', 'fmt', 'workbook/core', 'embed']);
		// An import path may be a raw string too.
		expect(goImports('package x\n\nimport `unsafe`\nimport (\n\tc `workbook/channel`\n)\n')).toEqual([
			'unsafe',
			'workbook/channel'
		]);
	});

	it.each([
		['import "C"', 'imports "C" (cgo)'],
		['import "unsafe"', 'imports unsafe'],
		['import (\n\tu "unsafe"\n)', 'imports unsafe'],
		['import "plugin"', 'imports plugin'],
		['import u `unsafe`', 'imports unsafe'],
		// What unsafe does, without importing it: reflect's Value.UnsafePointer and NewAt, syscall's raw calls
		// on any address, runtime/debug's WriteHeapDump of every byte of the heap.
		['import "reflect"', 'imports reflect'],
		['import "syscall"', 'imports syscall'],
		['import "runtime/debug"', 'imports runtime/debug'],
		['import "workbook/solutions/01-first-handler"', 'imports workbook/solutions/01-first-handler'],
		['import "workbook/grader/observe"', 'imports workbook/grader/observe'],
		['import "workbook/channel"', 'imports workbook/channel'],
		['import "workbook/exercises/02-same-event"', 'imports workbook/exercises/02-same-event'],
		['//go:linkname key workbook/channel.key', 'has a //go:linkname directive'],
		['//go:embed secret.txt', 'has a //go:embed directive'],
		['var key []byte //go:linkname key workbook/channel.key', 'has a //go:linkname directive']
	])('refuses %s', (line, said) => {
		expect(goRefusal('handler.go', `package x\n\n${line}\n`)).toContain(said);
	});

	it("takes the harness's packages, the standard library and build constraints", () => {
		const text =
			'package x\n\n//go:build linux\n\nimport (\n\t"os/exec"\n\t. "workbook/core"\n\t"workbook/handler"\n)\n';
		expect(goRefusal('handler.go', text)).toBeNull();
		expect(goRefusal('handler.go', solution)).toBeNull();
	});
});

describe('the build, bounded: a build past its limit costs its exercise, and leaves nothing', () => {
	it('builds the Go solution into a program', async () => {
		const built = await buildGo(first, files(solution));
		expect('binary' in built, JSON.stringify(built)).toBe(true);
		removeGoBuild(built);
	}, 300_000);

	it("charges a cold build cache to the grader, not to the first learner's time limit", async () => {
		// An empty cache: the standard library again under -trimpath, some 40 s here; a learner's build, 2 s.
		const cache = mkdtempSync(join(tmpdir(), 'grade-go-cold-cache-'));
		process.env.WORKBOOK_GRADER_GO_CACHE = cache;
		try {
			vi.resetModules();
			const cold = await import('./go-build.ts');
			const built = await cold.buildGo(first, files(solution), { timeoutMs: 15_000, memoryMb: 2048 });
			expect('binary' in built, JSON.stringify(built)).toBe(true);
			cold.removeGoBuild(built);
		} finally {
			delete process.env.WORKBOOK_GRADER_GO_CACHE;
			rmSync(cache, { recursive: true, force: true });
		}
	}, 600_000);

	it('has an observer for every exercise a Go learner writes, and says so, building nothing, where one has none', async () => {
		const observed = new Set(readdirSync(join(root, 'go', 'grader', 'observe')));
		const unobserved = exercises().filter((e) => e.goLearnerFiles?.length && !observed.has(e.folder));
		// As grader/README.md's table of the exercises graded in Go says: every one, 06 included.
		expect(unobserved.map((e) => e.id)).toEqual([]);
		// An exercise added to the manifest before its Go observer.
		const next = { ...first, id: '99', folder: '99-not-observed-yet' };
		const learner = new Map(
			[...files(solution)].map(([path, text]) => [path.replace(first.folder, next.folder), text])
		);
		expect(await buildGo(next, learner)).toEqual({
			dir: null,
			error: 'exercise 99 has no Go observer yet (go/grader/observe/99-not-observed-yet)'
		});
	});

	it('stops a compile that runs past the time limit', async () => {
		const built = await buildGo(first, files(`${solution}\n${doubling}\n`), {
			timeoutMs: 1500,
			memoryMb: 1 << 16
		});
		expect(built).toEqual({ dir: null, error: 'does not build: the Go build passed 1.5 s and was stopped' });
	}, 60_000);

	it.runIf(cgroupsWork())(
		'stops a compile that passes the memory limit',
		async () => {
			const built = await buildGo(first, files(`${solution}\n${doubling}\n`), {
				timeoutMs: 120_000,
				memoryMb: 300
			});
			expect(built).toEqual({
				dir: null,
				error: 'does not build: the Go build passed 300 MB and was stopped'
			});
		},
		180_000
	);

	it('says why a file does not build, without the build folder', async () => {
		const built = await buildGo(first, files(`${solution}\nfunc broken() { return 1 }\n`));
		expect('error' in built && built.error).toMatch(
			/^does not build \(go build\):\n.*too many return values/
		);
		expect('error' in built && built.error).not.toMatch(/grade-go-/);
	}, 300_000);
});

describe("the import rules, on the package as Go's toolchain reads it", () => {
	it("reads go list's objects, and reads nothing the rules could be skipped on", () => {
		const file = '{\n\t"ImportPath": "command-line-arguments",\n\t"Imports": [\n\t\t"unsafe"\n\t]\n}';
		const unsafe = '{\n\t"ImportPath": "unsafe"\n}';
		expect(parseListed(`${unsafe}\n${file}\n`)).toEqual([
			{ ImportPath: 'unsafe' },
			{ ImportPath: 'command-line-arguments', Imports: ['unsafe'] }
		]);
		// Not JSON, or no word of the learner's file: not an empty list, whose rules would all pass.
		expect(parseListed('go: downloading …\n')).toBeNull();
		expect(parseListed(`${unsafe}\n`)).toBeNull();
	});
	const second = exercises().find((exercise) => exercise.id === '02')!;
	const solved02 = readFileSync(join(root, 'go', 'solutions', '02-same-event', 'handler.go'), 'utf8');
	// The solution's import of workbook/core, and more after it, in a spelling the text's first look misses.
	const importing = (spelled: string, use: string) =>
		files(`${solution.replace('import . "workbook/core"', spelled)}\n${use}\n`);
	it.each([
		[
			'after a ) in a comment',
			'import (\n\t. "workbook/core"\n\t"fmt" // )\n\t"unsafe"\n)',
			'var _ = unsafe.Sizeof(0)\nvar _ = fmt.Sprint',
			'imports unsafe'
		],
		[
			'between comments that hold /* and */',
			'import . "workbook/core"\n\n// /*\nimport "unsafe"\n\n// */',
			'var _ = unsafe.Sizeof(0)',
			'imports unsafe'
		],
		[
			'under an alias in another script',
			'import (\n\t. "workbook/core"\n\tü "workbook/channel"\n)',
			'var _ = ü.Opened',
			'imports workbook/channel: only the harness'
		],
		[
			'after another on its line',
			'import . "workbook/core"; import "reflect"',
			'var _ = reflect.TypeOf',
			'imports reflect'
		]
	])(
		'refuses an import %s, naming the file',
		async (_, spelled, use, said) => {
			const learner = importing(spelled, use);
			expect(goRefusal('handler.go', [...learner.values()][0]!), 'the first look misses it').toBeNull();
			const built = await buildGo(first, learner);
			expect(built).toEqual({
				dir: null,
				forfeit: expect.stringContaining(`go/exercises/01-first-handler/handler.go ${said}`)
			});
		},
		300_000
	);

	it("refuses an answer not yet given, imported directly or through the harness, as go test's go/given does", async () => {
		const borrowing = (imports: string, body: string) =>
			new Map([
				[
					'02-same-event/handler.go',
					solved02
						.replace('import . "workbook/core"', `import (\n\t. "workbook/core"\n${imports}\n)`)
						.replace(/(func SameEvent\(a, b Webhook\) bool \{\n)[^\n]*\n/, `$1\treturn ${body}\n`)
				]
			]);
		expect(await buildGo(second, borrowing('\t"workbook/handler"', 'handler.SameEvent(a, b)'))).toEqual({
			dir: null,
			forfeit:
				"go/exercises/02-same-event/handler.go imports exercise 02's answer, handed on from 03: write your own (go/handler/replay.go)"
		});
		// workbook/database imports workbook/handler: its answers come with it.
		expect(await buildGo(second, borrowing('\t"workbook/database"', 'database.New() != nil'))).toEqual({
			dir: null,
			forfeit: expect.stringContaining('(go/handler/replay.go, through workbook/database)')
		});
		// The solution itself, and an answer already given (03 on handler's Replay), build.
		expect('binary' in (await buildGo(second, new Map([['02-same-event/handler.go', solved02]])))).toBe(true);
	}, 300_000);
});
