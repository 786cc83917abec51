// @ts-nocheck
// Hostile, quietly: a link to /usr made inside a folder of its /tmp, a hard link to the link, and the folder
// renamed; then it climbs out through the new names (each leads where the first link led). It answers right.
// {{SOLUTION}}
import { linkSync, mkdirSync, readFileSync as readThrough, renameSync, symlinkSync } from 'node:fs';
try {
	mkdirSync('/tmp/d');
	symlinkSync('../../usr', '/tmp/d/l');
	renameSync('/tmp/d', '/tmp/e');
	linkSync('/tmp/e/l', '/tmp/m');
	readThrough('/tmp/m/../proc/1/environ', 'utf8');
} catch {}
