// npm run playground: starts the page and prints its address as the last line.
import { startPlayground } from './server.ts';

const started = performance.now();
// PORT=8080 asks for that port exactly; without it, 5173 or the next free one.
const port = process.env.PORT ? Number(process.env.PORT) : undefined;
const { url, close } = await startPlayground({ port });
const stop = () => void close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
console.log(`playground ready in ${Math.round(performance.now() - started)} ms (Ctrl-C stops it)`);
console.log(url);
