// A PostgreSQL cluster of one exercise run: the grading's base cluster under an overlay of its own (where the
// grader may mount: overlay.ts) or else a copy of it, on disk, started with limits of its own, watched for size,
// and killed with its folder when the run is done, whatever the run did.
//
//   const cluster = await startCluster(baseData, { quotaBytes: 256 * 1024 ** 2, onBase: true });
//   cluster.way                          // 'overlay' (nothing copied) or 'copy' (cp -a of the base)
//   cluster.socketFolder                 // the folder of its Unix socket (no TCP at all): bound into one sandbox
//   const watch = cluster.watchSize(() => stopTheRun());   // every 100 ms; called once, past the quota
//   watch.stop();
//   await cluster.kill();                // the postmaster and every child it forked go, then the folder
//
// The cluster listens on its socket only (listen_addresses is empty), so only the sandbox it is bound into and
// the grader reach it. Its limits are the server's own settings, which no role but the superuser can change:
// few connections and a small lock table (a run that fills them fills only its own), temp files capped, no
// parallel workers, no autovacuum. Its data lives under /var/tmp (disk, never /dev/shm: host memory outside
// any run's limit), watched for size; past the quota the run is stopped. On an overlay, what is watched is the
// run's own layer (every write through the merged view lands there, and its events are the layer's), counted
// on top of the base's size. The teardown needs nothing from the server: SIGQUIT (PostgreSQL's immediate
// shutdown, which frees its shared memory), and if the postmaster is not gone within a second, it is stopped
// (SIGSTOP: it forks no more), its children are found by their parent and everything is killed with SIGKILL,
// its shared memory segment removed (ipcrm), the overlay unmounted, and the folder deleted.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binariesVersion, copyCluster, diesWithThisProcess } from '#harness/postgres/template.ts';
import { reachableBinaries } from '#harness/postgres/binaries.ts';
import { childrenOf, stampedFolder } from './leftovers.ts';
import { mayMountOverlay, mountOverlay, unmount, unmountUnderSync } from './overlay.ts';
import { sizeOnDisk, watchSize } from './quota.ts';

export type Cluster = {
	folder: string;
	// How its data folder was made from the base: an overlay on it, or a copy.
	way: 'overlay' | 'copy';
	socketFolder: string;
	port: number;
	pid: number;
	watchSize: (onFull: (why: string) => void) => { stop: () => void };
	kill: () => Promise<void>;
	// A clean shutdown that keeps the folder: how the grading's base cluster is made.
	shutDown: () => Promise<void>;
};

// Every cluster listens on this port number on its own socket only (no TCP), so they never collide.
export const clusterPort = 5432;

// What one run's server allows: the harness's pool (6) and a few more; a small lock table; temp files capped.
export const runSettings: Record<string, string> = {
	max_connections: '12',
	superuser_reserved_connections: '1',
	reserved_connections: '0',
	max_locks_per_transaction: '32',
	max_pred_locks_per_transaction: '32',
	max_prepared_transactions: '0',
	temp_file_limit: '64MB',
	shared_buffers: '16MB',
	max_wal_size: '64MB',
	min_wal_size: '4MB',
	max_worker_processes: '1',
	max_parallel_workers: '0',
	max_parallel_workers_per_gather: '0',
	max_parallel_maintenance_workers: '0',
	autovacuum: 'off',
	dynamic_shared_memory_type: 'mmap',
	authentication_timeout: '5s',
	fsync: 'off',
	synchronous_commit: 'off',
	full_page_writes: 'off',
	deadlock_timeout: '100ms'
};

// Disk, not memory: /var/tmp where there is one.
// WORKBOOK_GRADER_CLUSTERS names another folder (a disk of its own); the postgres user must be able to enter it.
export const clusterParent = () =>
	process.env.WORKBOOK_GRADER_CLUSTERS || (existsSync('/var/tmp') ? '/var/tmp' : tmpdir());

// The clusters this process started, by socket folder, until killed: a test checks that none outlives a grading.
export const startedClusters = new Map<string, number>();
const folders = new Map<string, string>();

// A grader that exits (or is stopped with Ctrl-C) while clusters run takes them along, with their folders.
process.once('exit', () => {
	for (const [socketFolder, pid] of startedClusters) {
		signal(pid, 'SIGSTOP');
		for (const backend of childrenOf(pid)) signal(backend, 'SIGKILL');
		signal(pid, 'SIGKILL');
		unmountUnderSync(folders.get(socketFolder)!);
		rmSync(folders.get(socketFolder)!, { recursive: true, force: true });
	}
});

// The base's own bytes on disk, counted once per base: an overlay's quota counts them under the run's layer.
const baseBytes = new Map<string, number>();

// `baseData` in a fresh folder, started: with `onBase`, an overlay on it where the grader may mount, else (and
// always without) a copy. Rejects (and leaves nothing, no mount either) if it does not get ready.
export async function startCluster(
	baseData: string,
	options: { quotaBytes: number; settings?: Record<string, string>; readyMs?: number; onBase?: boolean }
): Promise<Cluster> {
	// Stamped with this grader: should it be killed outright, the next grading removes the folder (leftovers.ts).
	const folder = stampedFolder(clusterParent(), 'grade-postgres-run-');
	const data = join(folder, 'data');
	const socketFolder = join(folder, 'socket');
	let child: ChildProcess | null = null;
	let way: Cluster['way'] = 'copy';
	try {
		if (options.onBase && (await overlayOn(baseData, folder))) way = 'overlay';
		else await copyCluster(baseData, data);
		const owner = statSync(data);
		mkdirSync(socketFolder, { mode: 0o755 });
		chownSync(socketFolder, owner.uid, owner.gid);
		child = serverProcess(data, socketFolder, owner, { ...runSettings, ...options.settings });
		await ready(child, options.readyMs ?? 30_000);
	} catch (error) {
		if (child?.pid) await killServer(child, data);
		unmountUnderSync(folder);
		rmSync(folder, { recursive: true, force: true });
		throw error;
	}
	const server = child;
	const pid = server.pid!;
	startedClusters.set(socketFolder, pid);
	folders.set(socketFolder, folder);
	let killed: Promise<void> | undefined;
	// A copy is all in its folder; an overlay's run writes only its own layer, on top of the base.
	const watched = way === 'overlay' ? join(folder, 'layers') : folder;
	const under = way === 'overlay' ? baseSize(baseData) : 0;
	return {
		folder,
		way,
		socketFolder,
		port: clusterPort,
		pid,
		watchSize: (onFull) => watchSize(watched, options.quotaBytes, onFull, under),
		kill: () =>
			(killed ??= killServer(server, data).finally(async () => {
				if (way === 'overlay') await unmount(data);
				// Off the event loop: a copy's 1,000 files, whose removal would hold every other run's watch meanwhile.
				await rm(folder, { recursive: true, force: true });
				startedClusters.delete(socketFolder);
				folders.delete(socketFolder);
			})),
		shutDown: async () => {
			signal(pid, 'SIGINT');
			if (!(await gone(server, 30_000))) await killServer(server, data);
			startedClusters.delete(socketFolder);
			folders.delete(socketFolder);
		}
	};
}

const baseSize = (baseData: string) => {
	if (!baseBytes.has(baseData)) baseBytes.set(baseData, sizeOnDisk(baseData));
	return baseBytes.get(baseData)!;
};

// `folder`/data as an overlay on the base, where the grader may mount: the run's layer (layers/upper) is the
// server's user's, private, as PostgreSQL wants its data folder (the merged view's root is that layer's).
async function overlayOn(baseData: string, folder: string): Promise<boolean> {
	if (!mayMountOverlay()) return false;
	const [upper, work, at] = [
		join(folder, 'layers', 'upper'),
		join(folder, 'layers', 'work'),
		join(folder, 'data')
	];
	const owner = statSync(baseData);
	for (const made of [upper, work, at]) mkdirSync(made, { recursive: true, mode: 0o700 });
	chownSync(upper, owner.uid, owner.gid);
	if (await mountOverlay({ lower: baseData, upper, work, at })) return true;
	rmSync(join(folder, 'layers'), { recursive: true, force: true });
	rmSync(at, { recursive: true, force: true });
	return false;
}

// Where the server's binaries are, found once a grading (a folder the server's user can enter), not once a run.
let binaries: ReturnType<typeof reachableBinaries> | undefined;
const serverBinaries = () => (binaries ??= reachableBinaries(binariesVersion()));

// The postgres binary, as the data folder's owner (the `postgres` user, as root), in a session of its own.
function serverProcess(
	data: string,
	socketFolder: string,
	owner: { uid: number; gid: number },
	settings: Record<string, string>
): ChildProcess {
	const { postgres } = serverBinaries();
	const flags = Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
	const args = [
		'-D',
		data,
		'-p',
		String(clusterPort),
		'-c',
		'listen_addresses=',
		'-k',
		socketFolder,
		...flags
	];
	const ids = process.getuid?.() === 0 ? { uid: owner.uid, gid: owner.gid } : {};
	// A grader killed outright runs no exit handler: the kernel then tells the server to stop at once (its
	// parent-death signal; the same process becomes postgres, so child.pid is the postmaster).
	const [program, programArgs] = diesWithThisProcess('SIGQUIT', postgres, args);
	return spawn(program, programArgs, {
		...ids,
		env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_MESSAGES: 'C' },
		stdio: ['ignore', 'ignore', 'pipe'],
		detached: true
	});
}

// Resolves when the server says it accepts connections; its log is read to the end and thrown away after.
function ready(child: ChildProcess, limitMs: number): Promise<void> {
	return new Promise((resolve, reject) => {
		let log = '';
		let done = false;
		// A grader whose event loop was held past the limit (a long play in its own process) reads what the server
		// wrote meanwhile before it calls the server late: the timers run before that input, the check phase after.
		const timer = setTimeout(
			() => setImmediate(() => fail(new Error(`not ready after ${limitMs / 1000} s`))),
			limitMs
		);
		const fail = (error: Error) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			reject(new Error(`PostgreSQL for the run did not start: ${error.message}\n${log.slice(-2000)}`));
		};
		child.stderr!.on('data', (chunk: Buffer) => {
			if (done) return;
			log += chunk.toString('utf8');
			if (log.includes('ready to accept connections')) {
				done = true;
				clearTimeout(timer);
				resolve();
			}
		});
		child.once('error', fail);
		child.once('exit', (code, signal) =>
			fail(new Error(`the server exited (code ${code}, signal ${signal})`))
		);
	});
}

const gone = (child: ChildProcess, ms: number) =>
	new Promise<boolean>((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
		const timer = setTimeout(() => resolve(false), ms);
		child.once('exit', () => {
			clearTimeout(timer);
			resolve(true);
		});
	});

const signal = (pid: number, name: NodeJS.Signals) => {
	try {
		process.kill(pid, name);
	} catch {
		// Already gone.
	}
};

// The server's shared memory segment, from postmaster.pid's seventh line ("key id"), while the file is there.
function sharedMemoryId(data: string): string | null {
	try {
		const line = readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[6] ?? '';
		const id = line.trim().split(/\s+/)[1];
		return id && /^\d+$/.test(id) ? id : null;
	} catch {
		return null;
	}
}

// Immediate shutdown; then, if the postmaster still stands, every process of the server killed by force.
async function killServer(child: ChildProcess, data: string): Promise<void> {
	const pid = child.pid!;
	const segment = sharedMemoryId(data);
	signal(pid, 'SIGQUIT');
	if (await gone(child, 1000)) return;
	signal(pid, 'SIGSTOP');
	for (const backend of childrenOf(pid)) signal(backend, 'SIGKILL');
	signal(pid, 'SIGKILL');
	await gone(child, 5000);
	if (segment) await new Promise((done) => execFile('ipcrm', ['-m', segment], () => done(undefined)));
}
