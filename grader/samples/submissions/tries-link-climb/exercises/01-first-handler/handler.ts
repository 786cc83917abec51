// @ts-nocheck
// Hostile, quietly: makes a link in its own /tmp to /usr, then climbs out of it with `..`: the kernel climbs
// from where the link leads (/usr/.. is /), so /tmp/up/../proc/1/environ is /proc/1/environ, which a rule that
// drops `..` by the letters would take for /tmp/proc/1/environ. It answers right.
// {{SOLUTION}}
import { readFileSync as readThrough, symlinkSync as linkAs } from 'node:fs';
try {
	linkAs('/usr', '/tmp/up');
	readThrough('/tmp/up/../proc/1/environ', 'utf8');
} catch {}
