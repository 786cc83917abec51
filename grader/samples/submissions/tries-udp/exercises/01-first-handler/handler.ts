// @ts-nocheck
// Hostile, quietly: sends a UDP datagram to an outside address (the sandbox has no network, so it goes
// nowhere; the attempt is what counts), waits for it to go, and answers right.
// {{SOLUTION}}
import { createSocket } from 'node:dgram';
const socket = createSocket('udp4');
await new Promise((sent) => socket.send('hello', 53, '203.0.113.7', sent));
socket.close();
