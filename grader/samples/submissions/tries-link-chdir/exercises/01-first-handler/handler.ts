// @ts-nocheck
// Hostile, quietly: moves its working folder into a link it made, three folders deep in its /tmp, to /usr;
// then reads by a relative path that climbs from where the link leads (../proc/1/environ from /usr), which
// by the letters would be /tmp/a/b/proc/1/environ. It answers right.
// {{SOLUTION}}
import { mkdirSync, readFileSync as readThrough, symlinkSync as linkAs } from 'node:fs';
const before = process.cwd();
try {
	mkdirSync('/tmp/a/b', { recursive: true });
	linkAs('/usr', '/tmp/a/b/c');
	process.chdir('/tmp/a/b/c');
	readThrough('../proc/1/environ', 'utf8');
} catch {}
process.chdir(before);
