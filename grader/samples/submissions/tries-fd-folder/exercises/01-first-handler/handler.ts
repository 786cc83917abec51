// @ts-nocheck
// Hostile, quietly: opens its own /tmp as a descriptor and climbs out of /proc/self/fd/<n>, which the kernel
// takes as the folder the descriptor holds (/tmp/.. is /). It answers right.
// {{SOLUTION}}
import { openSync, readFileSync as readThrough } from 'node:fs';
try {
	const folder = openSync('/tmp', 'r');
	readThrough(`/proc/self/fd/${folder}/../proc/1/environ`, 'utf8');
} catch {}
