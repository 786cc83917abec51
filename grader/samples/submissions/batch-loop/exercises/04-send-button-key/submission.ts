// @ts-nocheck
// Hostile, in a batch: exercise 04 loops forever as it loads, with every other exercise solved.
for (;;) {}
