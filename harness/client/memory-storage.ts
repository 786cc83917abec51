// A tab's sessionStorage, in memory: it survives a reload of the page, and it can be made to fail.
import type { KeyStore } from './model.ts';

export type StorageMethod = 'getItem' | 'setItem' | 'removeItem';
export const storageMethods: readonly StorageMethod[] = ['getItem', 'setItem', 'removeItem'];

// What a browser throws when storage is full, or when private browsing refuses it.
export class StorageFailure extends Error {
	override name = 'QuotaExceededError';
}

export class MemoryStorage implements KeyStore {
	private items = new Map<string, string>();
	private failing = new Set<StorageMethod>();

	constructor(items: Record<string, string> = {}) {
		for (const [name, value] of Object.entries(items)) this.items.set(name, value);
	}

	// From now on these methods throw, the way a full or refused storage does.
	fail(methods: readonly StorageMethod[] = storageMethods): void {
		for (const method of methods) this.failing.add(method);
	}

	heal(): void {
		this.failing.clear();
	}

	getItem(name: string): string | null {
		this.check('getItem');
		return this.items.get(String(name)) ?? null;
	}

	setItem(name: string, value: string): void {
		this.check('setItem');
		this.items.set(String(name), String(value));
	}

	removeItem(name: string): void {
		this.check('removeItem');
		this.items.delete(String(name));
	}

	// What is stored, for tests to look at; it never fails.
	contents(): Record<string, string> {
		return Object.fromEntries(this.items);
	}

	// Writes behind the form's back, the way an older version of the app or a curious user could.
	put(name: string, value: string): void {
		this.items.set(name, value);
	}

	private check(method: StorageMethod): void {
		if (this.failing.has(method))
			throw new StorageFailure(`${method} failed: the storage is full or refused`);
	}
}
