// @ts-nocheck
// Hostile, in a batch: exercise 04 throws as it loads, with every other exercise solved.
throw new Error('04 will not load');
