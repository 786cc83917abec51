// In the browser: the learner's key store once both functions are written, the solution's until then.
import type { KeyStoreCode } from '#harness/client/play.ts';
import { MemoryStorage } from '#harness/client/memory-storage.ts';

export type KeyStore = KeyStoreCode & { label: string };

const written = (code: KeyStoreCode): boolean => {
	try {
		const store = code.submissions(new MemoryStorage(), 'probe', () => 'probe');
		code.afterAnswer(store, { kind: 'no-answer' });
		return true;
	} catch (error) {
		// Anything but the stub's own error is the learner's code at work: run it, and let the page show it.
		return (error as Error)?.name !== 'NotWrittenYet';
	}
};

export function pickWritten(learner: KeyStoreCode, solution: KeyStoreCode): KeyStore {
	if (written(learner)) return { ...learner, label: 'your code, exercises/04-send-button-key/submission.ts' };
	return {
		...solution,
		label:
			"the solution, solutions/04-send-button-key/submission.ts: yours still says 'not written yet', so the page runs this one until it is"
	};
}
