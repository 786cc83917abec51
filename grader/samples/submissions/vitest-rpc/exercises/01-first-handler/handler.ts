// @ts-nocheck
// Hostile: reports its own results through Vitest's worker RPC.
const worker = globalThis.__vitest_worker__;
worker.rpc.onTaskUpdate([['every-test', { state: 'pass' }]]);
export class TicketHandler {}
