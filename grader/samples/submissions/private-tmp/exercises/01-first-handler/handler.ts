// The reference's handler, and a file it leaves in /tmp: a private /tmp, so no one else ever sees it.
// {{SOLUTION}}
import { writeFileSync } from 'node:fs';
writeFileSync('/tmp/grader-private-tmp-marker', 'left by a learner');
