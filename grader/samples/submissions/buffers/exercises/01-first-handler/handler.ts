// @ts-nocheck
// Hostile: 2.5 GB of Buffers (outside the JavaScript heap), at import.
const kept: Buffer[] = [];
for (let i = 0; i < 25; i++) kept.push(Buffer.alloc(100 * 1024 * 1024, 1));
export class TicketHandler {}
