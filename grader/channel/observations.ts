// What comes out of the sandbox: one line per input on file descriptor 3, written by grader/inside/main.ts
// through grader/inside/seal.ts and read, strictly, by grader/trusted/run-exercise.ts. Each line is an HMAC-SHA256
// in hex, a space, and one JSON value; the HMAC, under the run's own key (handed in on fd 4, read and closed
// before learner code loads), covers the line's number (0, 1, …), a newline and the JSON's text:
//
//   {"c":0,"i":2,"ok":<what the code did>}        check 0, case 2: the observer's answer
//   {"c":0,"i":2,"threw":{"name":…,"message":…}}  …or what it threw
//   {"load":{"file":"handler.ts","name":…,"message":…}}   a learner file did not load
//   {"exited":1,"while":"during check 1, case 3"}  the learner's code ended the process
//   {"refused":"process.dlopen"}                   the learner's code called what may not run (a forfeit)
//   {"done":true}                                  the last line of a run that finished
//
// A batch (grader/channel/job.ts's BatchJob) writes, on one channel numbered from 0 to its end, one part after
// the other: each part opens with the line below, holds that exercise's lines as above, and ends with done.
//
//   {"begin":2,"heldOut":false}                    the batch's exercise 2 begins: its given checks (or held-out)
//
// The reader trusts none of it: these types say what an honest run writes, not what arrives. A line that does not
// verify, or a last line left unfinished by a run the grader did not stop, was not the observer's.

// The descriptor of the channel, a pipe the grader holds the other end of.
export const channelFd = 3;
// The descriptor the run's key arrives on: a pipe the grader writes 32 random bytes into and closes.
export const keyFd = 4;
// The descriptor the held-out checks' inputs arrive on (HeldOutInputs, grader/channel/job.ts): a pipe the grader
// writes them into and closes, read and closed by the observer before learner code loads.
export const heldOutFd = 5;

// An error as data: a judge outside the sandbox can only read its name and message.
export type SaidError = { name: string; message: string };

export type ObservationLine =
	| { c: number; i: number; ok: unknown }
	| { c: number; i: number; threw: SaidError }
	| { load: SaidError & { file: string } }
	| { exited: number; while: string }
	| { refused: string }
	| { done: true }
	| { begin: number; heldOut: boolean };
