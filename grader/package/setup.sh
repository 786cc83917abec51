#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu): Node 20, bubblewrap,
# strace (which records what a run tried, from outside its sandbox), and the workbook's dependencies.
set -euo pipefail
apt-get update
apt-get install -y ca-certificates curl gnupg bubblewrap strace
if ! node --version 2>/dev/null | grep -q '^v2[0-9]'; then
	curl -fsSL https://deb.nodesource.com/setup_20.x | bash -
	apt-get install -y nodejs
fi
cd /autograder/source
npm ci --no-audit --no-fund
