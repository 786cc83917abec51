// The reference's handler, and a detached child that waits, then rewrites a classmate's file.
// {{SOLUTION}}
import { spawn } from 'node:child_process';
spawn(
	'sh',
	[
		'-c',
		'sleep 30; echo hacked > {{CLASS}}/complete/exercises/02-same-event/handler.ts # grader-detached-marker'
	],
	{
		detached: true,
		stdio: 'ignore'
	}
).unref();
