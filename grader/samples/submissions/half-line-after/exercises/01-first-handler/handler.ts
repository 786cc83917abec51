// @ts-nocheck
// Hostile: right answers, and half a line written on the grader's channel after the observer's last one,
// when the process exits, as if a kill had cut it.
// {{SOLUTION}}
import { writeSync as writeLate } from 'node:fs';
process.on('exit', () => writeLate(3, '{"c":0,"i":0,"ok":'));
