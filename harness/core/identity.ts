// An event's identity: tenant, source and event id. The one home of the rule for "the same event", and of the
// way an identity is printed, for everything in the harness that compares or prints one.
//
//   sameEvent(a, b)        true when tenant, source and event id are each equal
//   saidIdentity(event)    acme/helpdesk/evt-42, or "a/b"/"c"/"evt-1" when a field is not plain
//
// The fields are compared one by one, never joined into one string: joined, tenant "a:b" with source "c"
// reads the same as tenant "a" with source "b:c". The harness keeps its own rule rather than the learner's
// sameEvent, so a wrong sameEvent fails its tests instead of changing how the tests tell events apart.
//
// The printed form never prints two identities alike. When every field is plain (not empty, and no "/",
// quote, backslash, space, control or other invisible character) the three are joined with "/", as the
// lesson writes them. Otherwise every field is quoted as JSON quotes it, and what can't be seen is escaped
// (\n, \t, \u200b…), so a "/" or a space inside a field stays visibly inside it.
import type { Webhook } from './model.ts';

export type EventIdentity = Pick<Webhook, 'tenant' | 'source' | 'eventId'>;

// The same event: same tenant, same source, same event id.
export function sameEvent(a: EventIdentity, b: EventIdentity): boolean {
	return a.tenant === b.tenant && a.source === b.source && a.eventId === b.eventId;
}

// Characters a reader can't see, or can't tell apart: controls, format characters (zero-width, direction
// marks), every kind of space and line separator, and halves of a surrogate pair standing alone.
const unseen = /[\p{Cc}\p{Cf}\p{Z}\p{Cs}]/u;
const plain = (field: string) => field !== '' && !/["/\\]/.test(field) && !unseen.test(field);

const shortEscapes: Record<string, string> = {
	'\b': '\\b',
	'\f': '\\f',
	'\n': '\\n',
	'\r': '\\r',
	'\t': '\\t'
};

// A field as a JSON string, with every character that can't be seen escaped (the plain space stays).
export function quoted(field: string): string {
	let said = '"';
	for (const char of field) {
		if (char === '"' || char === '\\') said += `\\${char}`;
		else if (shortEscapes[char]) said += shortEscapes[char];
		else if (char !== ' ' && unseen.test(char)) said += escapedUnits(char);
		else said += char;
	}
	return `${said}"`;
}

// "\u200b"; a character beyond the first 65536 as its two UTF-16 halves, as JSON writes it.
function escapedUnits(char: string): string {
	return [...Array(char.length).keys()]
		.map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`)
		.join('');
}

// "acme/helpdesk/evt-42"; "a/b"/"c"/"evt-1" when any field is not plain.
export function saidIdentity(event: EventIdentity): string {
	const fields = [event.tenant, event.source, event.eventId];
	return fields.every(plain) ? fields.join('/') : fields.map(quoted).join('/');
}
