import { describe, expect, it } from 'vitest';
import { brokenStorageLife } from './failing-storage.ts';
import type { KeyStore, Pending, Submissions, TicketBody } from './model.ts';
import { submissions } from '../../solutions/04-send-button-key/submission.ts';
import { todo } from '../core/todo.ts';

// A key store that trusts storage: it reads and writes it and never catches what it throws.
function trusting(storage: KeyStore, form: string, newKey: () => string): Submissions<TicketBody> {
	const read = () => JSON.parse(storage.getItem(form) ?? 'null') as Pending<TicketBody> | null;
	return {
		pending: read,
		begin: (body) => read() ?? (storage.setItem(form, JSON.stringify({ key: newKey(), body })), read()!),
		finish: () => storage.removeItem(form)
	};
}

describe("04's made-up tab lives over a storage that refuses at random", () => {
	it('the solution keeps every promise in 3000 of another seed (the loop plays 300)', () => {
		expect(brokenStorageLife(submissions, { runs: 3000, seed: 7 })).toBeNull();
	});
	it('a key store that trusts storage is caught, move by move, with the seed', () => {
		const problem = brokenStorageLife(trusting) ?? '';
		expect(problem).toContain('A made-up tab life over a failing storage breaks a promise at move');
		expect(problem).toMatch(/seed 4004, path [\d:]+\)/);
		expect(problem).toContain('storage starts refusing');
	});
	it('a stub is said as a stub', () => {
		expect(() => brokenStorageLife(() => todo('submissions', '04-send-button-key/submission.ts'))).toThrow(
			'submissions is not written yet'
		);
	});
});
