// The scheduler (scheduler/workers.ts) waits for a stalled worker with setImmediate, which browsers lack: the
// same, from a MessageChannel.
type Task = () => void;
const queue = new Map<number, Task>();
let next = 0;
const channel = new MessageChannel();
channel.port1.onmessage = (event: MessageEvent<number>) => {
	const task = queue.get(event.data);
	queue.delete(event.data);
	task?.();
};

const scope = globalThis as unknown as Record<string, unknown>;
if (typeof scope.setImmediate !== 'function') {
	scope.setImmediate = (task: Task) => {
		const id = ++next;
		queue.set(id, task);
		channel.port2.postMessage(id);
		return id;
	};
	scope.clearImmediate = (id: number) => queue.delete(id);
}
