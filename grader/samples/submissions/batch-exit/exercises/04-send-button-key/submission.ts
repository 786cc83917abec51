// @ts-nocheck
// Hostile, in a batch: exercise 04 ends the whole process as it loads, with every other exercise solved.
process.exit(0);
