// @ts-nocheck
// Hostile, quietly: connects to an abstract Unix socket (no file: a name in the kernel's table, which another
// run's PostgreSQL or the grader might hold), and answers right.
// {{SOLUTION}}
import { connect } from 'node:net';
await new Promise((done) => {
	const socket = connect({ path: '\0.s.PGSQL.5432' });
	socket.on('error', done);
	socket.on('connect', () => {
		socket.destroy();
		done();
	});
});
