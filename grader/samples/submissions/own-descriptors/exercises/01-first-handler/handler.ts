// @ts-nocheck
// Honest: right answers, from code that reads where its own standard output goes (its own descriptor).
// {{SOLUTION}}
import { readlinkSync } from 'node:fs';
export const stdoutIs = readlinkSync('/proc/self/fd/1');
