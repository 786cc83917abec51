// @ts-nocheck
// Hostile, in a batch: exercise 04 fills memory as it loads (2.5 GB of Buffers), with every other exercise solved.
const kept: Buffer[] = [];
for (let i = 0; i < 25; i++) kept.push(Buffer.alloc(100 * 1024 * 1024, 1));
