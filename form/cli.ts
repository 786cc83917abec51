// npm run form: exercise 06's endpoint on PostgreSQL, the network and the page, for riding the train by hand.
// The URL is the last line. The endpoint is yours once it is written, the solution's until then.
//
//   npm run form                    your key store once it is written, the solution's until then
//   npm run form -- solution        or learner, or wrong:<name> (a mistake from solutions/wrong/<name>.patch)
//   npm run form -- --memory        the harness's in-memory endpoint instead of exercise 06's on PostgreSQL
//
// Ctrl-C stops everything it started.
import { isCodeChoice } from './server/key-store.ts';
import { startStack } from './server/stack.ts';

const args = process.argv.slice(2);
// --memory: the harness's in-memory endpoint instead of exercise 06's on PostgreSQL (starts at once).
const memory = args.includes('--memory');
const choice = args.filter((arg) => arg !== '--memory')[0] ?? 'auto';
if (!isCodeChoice(choice)) {
	console.error(`npm run form: "${choice}" is not auto, learner, solution or wrong:<name>`);
	process.exit(2);
}
const stack = await startStack({ code: choice, watch: true, endpoint: memory ? 'memory' : 'auto' });
let stopping = false;
const stop = async () => {
	if (stopping) return;
	stopping = true;
	await stack.stop();
	process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
console.log(`Endpoint: ${stack.backend.label}`);
console.log(
	'The network panel is beside the form; /anti-pattern.html is the same form with a key per attempt.'
);
console.log('Ctrl-C stops it all.');
console.log(stack.url);
