// Key stores for the harness's own tests: a plain one close to the lesson's, and each of the usual mistakes.
import type { KeyStoreCode } from './play.ts';
import { isDefiniteAnswer } from '../endpoint/contract.ts';
import {
	entryName,
	type Answer,
	type FormState,
	type KeyStore,
	type Pending,
	type Submissions
} from './model.ts';

// Storage only, no guards. Each option is one mistake.
export type Options = {
	keyPerAttempt?: boolean;
	latestBody?: boolean;
	memoryOnly?: boolean;
	oneEntry?: boolean;
	finishInMemory?: boolean;
};
export function plain(options: Options = {}): KeyStoreCode['submissions'] {
	return <T>(
		storage: KeyStore,
		form: string,
		newKey: () => string = () => crypto.randomUUID()
	): Submissions<T> => {
		const name = options.oneEntry ? 'pending-submission' : entryName(form);
		let memory: Pending<T> | null = null;
		let finished = false;
		const pending = (): Pending<T> | null => {
			if (options.memoryOnly || finished) return memory;
			const saved = storage.getItem(name);
			return saved ? (JSON.parse(saved) as Pending<T>) : null;
		};
		return {
			pending,
			begin(body) {
				const unfinished = pending();
				if (unfinished && !options.keyPerAttempt)
					return options.latestBody ? { key: unfinished.key, body } : unfinished;
				finished = false;
				memory = { key: newKey(), body };
				if (!options.memoryOnly) storage.setItem(name, JSON.stringify(memory));
				return memory;
			},
			finish() {
				memory = null;
				if (options.finishInMemory) finished = true;
				else if (!options.memoryOnly) storage.removeItem(name);
			}
		};
	};
}

// Reads an answer the lesson's way, but finishes when finishOn says so.
export function meaning(finishOn: (status: number) => boolean) {
	return <T>(submission: Submissions<T>, answer: Answer): FormState => {
		if (answer.kind === 'no-answer') return { kind: 'unsure', status: null };
		const { status, ticketId } = answer;
		if (finishOn(status)) submission.finish();
		if (status < 300) return { kind: 'created', ticketId };
		if (isDefiniteAnswer(status)) return { kind: 'refused', status };
		return { kind: 'unsure', status };
	};
}
export const right = meaning(isDefiniteAnswer);
