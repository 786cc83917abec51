// What comes out of the sandbox: one line of JSON per input on file descriptor 3, written by
// grader/inside/main.ts and read, strictly, by grader/trusted/run-exercise.ts.
//
//   {"c":0,"i":2,"ok":<what the code did>}        check 0, case 2: the observer's answer
//   {"c":0,"i":2,"threw":{"name":…,"message":…}}  …or what it threw
//   {"load":{"file":"handler.ts","name":…,"message":…}}   a learner file did not load
//   {"exited":1,"while":"during check 1, case 3"}  the learner's code ended the process
//   {"done":true}                                  the last line of a run that finished
//
// The reader trusts none of it: these types say what an honest run writes, not what arrives.

// The descriptor of the channel, a pipe the grader holds the other end of.
export const channelFd = 3;

// An error as data: a judge outside the sandbox can only read its name and message.
export type SaidError = { name: string; message: string };

export type ObservationLine =
	| { c: number; i: number; ok: unknown }
	| { c: number; i: number; threw: SaidError }
	| { load: SaidError & { file: string } }
	| { exited: number; while: string }
	| { done: true };
