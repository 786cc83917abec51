import {
	entryName,
	type Answer,
	type FormState,
	type KeyStore,
	type Pending,
	type Submissions
} from '#harness/client/model.ts';

// A form sends its fields as text: a body is an object whose every field is a string.
function isFields(body: unknown): boolean {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
	return Object.values(body).every((value) => typeof value === 'string');
}

// The stored text, if it is a submission: anything else (not JSON, no key, a body that is not the form's
// fields) counts as nothing.
function read<T>(saved: string): Pending<T> | null {
	let entry: unknown;
	try {
		entry = JSON.parse(saved);
	} catch {
		return null;
	}
	if (entry === null || typeof entry !== 'object' || !('body' in entry) || !('key' in entry)) return null;
	const { key, body } = entry as { key: unknown; body: T };
	return typeof key === 'string' && key !== '' && isFields(body) ? { key, body } : null;
}

// One key per request the user means to send. An attempt whose outcome is unknown keeps its key and body,
// in storage so a reload finds them, and in this page's memory so a failing storage can't lose them.
export function submissions<T>(
	storage: KeyStore,
	form: string,
	newKey: () => string = () => crypto.randomUUID()
): Submissions<T> {
	const name = entryName(form);
	let current: Pending<T> | null = null;
	// Keys finished while their entry could not be removed: never offer one again from this page. All of
	// them, not the last: a stale entry can outlive a later submission that storage refused to save.
	const finished = new Set<string>();

	function stored(): Pending<T> | null {
		let saved: string | null;
		try {
			saved = storage.getItem(name);
		} catch {
			return null; // Unreadable, which is not damaged: nothing pending that this page doesn't already know.
		}
		if (saved === null) return null;
		const entry = read<T>(saved);
		if (entry === null) forget(); // Damaged: discard it.
		return entry && !finished.has(entry.key) ? entry : null;
	}

	function forget() {
		try {
			storage.removeItem(name);
		} catch {
			// Refused: the key is remembered in `finished` instead.
		}
	}

	function pending(): Pending<T> | null {
		current ??= stored();
		return current;
	}

	return {
		pending,
		// Continues the unfinished submission with its original key and body, or starts a new one.
		begin(body) {
			const unfinished = pending();
			if (unfinished) return unfinished;
			const text = JSON.stringify({ key: newKey(), body });
			// Kept as it was sent: changing the caller's object later can't change what a retry sends.
			current = JSON.parse(text) as Pending<T>;
			try {
				storage.setItem(name, text);
			} catch {
				// Full or refused: this page still keeps it, so Send again reuses the key until the tab reloads.
			}
			return current;
		},
		// A definite answer came back: the next submission is a new request.
		finish() {
			const over = pending();
			if (over) finished.add(over.key);
			current = null;
			forget();
		}
	};
}

// What an answer means for the form, and whether the submission is over.
export function afterAnswer<T>(submission: Submissions<T>, answer: Answer): FormState {
	if (answer.kind === 'no-answer') return { kind: 'unsure', status: null };
	const { status } = answer;
	const family = Math.floor(status / 100);
	if (family === 2) {
		submission.finish();
		return { kind: 'created', ticketId: answer.ticketId };
	}
	// A definite no: sending it again would get the same answer, and a corrected ticket is a new request.
	// Wrong: a 409 counted as one, though the first request with this key may still create the ticket.
	if (family === 4) {
		submission.finish();
		return { kind: 'refused', status };
	}
	// 5xx and anything else (a redirect fetch did not follow): it may exist, so keep it.
	return { kind: 'unsure', status };
}
