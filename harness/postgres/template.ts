// A PostgreSQL cluster initialised once per machine, copied for every server: initdb takes about a second,
// a copy of its folder about a tenth of that.
//
//   const template = await clusterTemplate(() => new EmbeddedPostgres({ … }));  // null: start from initdb
//   await copyCluster(template.data, join(folder, 'data'));   // then start the copy (it dies with this process)
//   // the copy's superuser password is template.password, until the server changes it
//
// The template lives in memory or under the OS temp dir (scratchFolder), named by the PostgreSQL binaries' version and how it was made, so
// a new version makes a new one. It is built in a folder of its own and renamed into place, so two runs that
// build it at once never see half of one; that folder is named with its maker (stamp.ts), so a build whose
// maker was killed is removed by the next one that looks. A template that is not this user's, or that others can write, is
// never used: startPostgres() then initialises a fresh cluster, as before.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	accessSync,
	chmodSync,
	constants,
	existsSync,
	lstatSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statfsSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { madeByTheGone, ownStamp } from './stamp.ts';
import { packageFolder } from './binaries.ts';

type ClusterTemplate = { data: string; password: string };
type Initialiser = { initialise: () => Promise<void> };

// Raise it when the way the template is made changes, so no machine keeps an old one.
const recipe = 2;

export function binariesVersion(): string {
	try {
		return (JSON.parse(readFileSync(join(packageFolder(), 'package.json'), 'utf8')) as { version: string })
			.version;
	} catch {
		return 'unknown';
	}
}

// A fresh superuser password, for the template and for each server copied from it.
export const newPassword = () => randomBytes(18).toString('hex');

// Where clusters go: memory (/dev/shm) when it has room, for a copy there takes a tenth of the time it takes on
// disk; else the OS temp dir. A container's small /dev/shm (Docker gives 64 MB) is passed over.
export function scratchFolder(memory = '/dev/shm'): string {
	try {
		const room = statfsSync(memory);
		accessSync(memory, constants.W_OK);
		if (room.bavail * room.bsize >= 1024 ** 3) return memory;
	} catch {
		// no /dev/shm here
	}
	return tmpdir();
}

const templateFolder = () =>
	join(
		scratchFolder(),
		`workbook-postgres-template-${binariesVersion()}-r${recipe}-u${process.getuid?.() ?? 0}`
	);

// Ours, a real folder (no link), and writable by nobody else.
function trusted(path: string): boolean {
	try {
		const stat = lstatSync(path);
		return stat.isDirectory() && stat.uid === (process.getuid?.() ?? stat.uid) && (stat.mode & 0o022) === 0;
	} catch {
		return false;
	}
}

export function readTemplate(folder = templateFolder()): ClusterTemplate | null {
	const data = join(folder, 'data');
	const passwordFile = join(folder, 'password');
	if (!trusted(folder) || !existsSync(join(data, 'PG_VERSION')) || !existsSync(passwordFile)) return null;
	return { data, password: readFileSync(passwordFile, 'utf8').trim() };
}

// The builds of `folder` whose maker is gone: killed outright during initdb, it left them (40 MB, often in
// memory) where nobody else would remove them. A build is named with its maker's stamp; others are left.
export function removeAbandonedBuilds(folder: string): void {
	const prefix = `${basename(folder)}.building-`;
	try {
		for (const name of readdirSync(dirname(folder))) {
			if (name.startsWith(prefix) && madeByTheGone(name.slice(prefix.length)))
				rmSync(join(dirname(folder), name), { recursive: true, force: true });
		}
	} catch {
		// Its place is gone, or a build is still being written by an initdb that outlived its maker: next time.
	}
}

// The template, built first when there is none. `make(data, password)` gives an unstarted server on that folder.
export async function clusterTemplate(
	make: (data: string, password: string) => Initialiser,
	folder = templateFolder()
): Promise<ClusterTemplate | null> {
	removeAbandonedBuilds(folder);
	const ready = readTemplate(folder);
	if (ready) return ready;
	if (existsSync(folder)) return null;
	const building = mkdtempSync(`${folder}.building-${ownStamp()}-`);
	try {
		chmodSync(building, 0o755);
		const password = newPassword();
		await make(join(building, 'data'), password).initialise();
		writeFileSync(join(building, 'password'), password, { mode: 0o600 });
		try {
			renameSync(building, folder);
		} catch {
			// Another run put its template in place first: use that one.
		}
		return readTemplate(folder);
	} catch {
		return null;
	} finally {
		rmSync(building, { recursive: true, force: true });
	}
}

const setpriv = '/usr/bin/setpriv';

// `program` with `args`, made to die by `signal` when this process dies, even killed outright (no exit handler
// runs then): util-linux's setpriv sets the parent-death signal and becomes a shell, which goes on to
// `program` only if its parent is still this process. Had this process died before the signal was set, it
// would never come, and the program would run on alone. Without setpriv, the program as it is.
export function diesWithThisProcess(
	signal: NodeJS.Signals,
	program: string,
	args: string[]
): [string, string[]] {
	if (!existsSync(setpriv)) return [program, args];
	const onlyIfParentLives = 'test "$PPID" = "$0" && exec "$@"';
	return [
		setpriv,
		['--pdeathsig', signal, '--', '/bin/sh', '-c', onlyIfParentLives, String(process.pid), program, ...args]
	];
}

// A copy that keeps owners and modes: the server's user owns the data, and PostgreSQL wants it private. It
// dies with this process: a copy left running after its caller was killed went on writing into a folder the
// next caller was removing.
export async function copyCluster(from: string, to: string): Promise<void> {
	await promisify(execFile)(...diesWithThisProcess('SIGKILL', 'cp', ['-a', from, to]));
}
