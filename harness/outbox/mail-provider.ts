// A fake mail provider that behaves like the real ones where it matters: it takes an idempotency key with
// each email, delivers at most one email per key within its window, can be down, and keeps an inbox.
import { copyEmail, type Email } from './model.ts';

// Time in seconds, moved by hand, so a test can step past the provider's window without waiting.
export class ManualClock {
	private seconds = 0;
	now(): number {
		return this.seconds;
	}
	advance(seconds: number): void {
		if (!(seconds >= 0)) throw new RangeError(`a clock only moves forward: advance(${seconds})`);
		this.seconds += seconds;
	}
}

export type Clock = { now(): number };

// The provider is unreachable: nothing was delivered, and sending again later is safe.
export class ProviderDown extends Error {
	override name = 'ProviderDown';
}

// The same key came back with a different email. Refused, as Stripe answers 422: a key names one request.
export class KeyReused extends Error {
	override name = 'KeyReused';
}

// What the provider answered a call: delivered it, recognised a repeat, was down, or refused a reused key.
export type Answer = 'delivered' | 'duplicate' | 'down' | 'refused';
export type Call = { key: string; answer: Answer; at: number };
export type Delivered = Email & { messageId: string; at: number };
export type Accepted = { messageId: string; duplicate: boolean };

// What a handler or a relay is given to send mail with: the provider's send, and nothing else.
export type Mail = { send(email: Email): Promise<Accepted> };

// A day, as many real providers remember a key for at least 24 hours.
export const defaultWindowSeconds = 24 * 60 * 60;

export class MailProvider {
	private readonly delivered: Delivered[] = [];
	private readonly log: Call[] = [];
	// The delivery each key names, while the key is remembered.
	private readonly keys = new Map<string, Delivered>();
	private down = false;
	readonly windowSeconds: number;
	readonly clock: Clock;

	constructor(options: { windowSeconds?: number; clock?: Clock } = {}) {
		this.windowSeconds = options.windowSeconds ?? defaultWindowSeconds;
		this.clock = options.clock ?? new ManualClock();
		if (!(this.windowSeconds > 0))
			throw new RangeError(`windowSeconds must be above 0: ${this.windowSeconds}`);
	}

	// Delivers the email, unless its key already delivered one within the window: then it answers as it did then.
	async send(email: Email): Promise<Accepted> {
		const checked = checkEmail(email);
		await Promise.resolve(); // a real call returns later; nobody may rely on it being synchronous
		const at = this.clock.now();
		if (this.down) {
			this.log.push({ key: checked.key, answer: 'down', at });
			throw new ProviderDown(`the mail provider is down: ${checked.key} was not delivered`);
		}
		const earlier = this.keys.get(checked.key);
		if (earlier && at - earlier.at < this.windowSeconds) {
			if (!sameEmail(earlier, checked)) {
				this.log.push({ key: checked.key, answer: 'refused', at });
				throw new KeyReused(
					`the key ${checked.key} already sent ${describe(earlier)}; now it came with ${describe(checked)}`
				);
			}
			this.log.push({ key: checked.key, answer: 'duplicate', at });
			return { messageId: earlier.messageId, duplicate: true };
		}
		const delivery = { ...checked, messageId: `msg-${this.delivered.length + 1}`, at };
		this.delivered.push(delivery);
		this.keys.set(checked.key, delivery);
		this.log.push({ key: checked.key, answer: 'delivered', at });
		return { messageId: delivery.messageId, duplicate: false };
	}

	goDown(): void {
		this.down = true;
	}

	comeBack(): void {
		this.down = false;
	}

	get isDown(): boolean {
		return this.down;
	}

	// Every email delivered, in order. A copy: changing it changes nothing here.
	inbox(): Delivered[] {
		return this.delivered.map((delivery) => ({ ...delivery }));
	}

	// Every call, in order, with what the provider answered.
	calls(): Call[] {
		return this.log.map((call) => ({ ...call }));
	}
}

function describe(email: Email): string {
	return `an email to ${email.to} for #${email.ticketId} "${email.subject}"`;
}

function sameEmail(a: Email, b: Email): boolean {
	return a.to === b.to && a.ticketId === b.ticketId && a.subject === b.subject;
}

// A real provider rejects a malformed request before doing anything; so does this one, and says what is wrong.
function checkEmail(email: Email): Email {
	if (typeof email !== 'object' || email === null)
		throw new TypeError(`the mail provider needs an email, got ${String(email)}`);
	const problems: string[] = [];
	if (typeof email.key !== 'string' || email.key === '')
		problems.push(`key must be a non-empty string (got ${JSON.stringify(email.key)})`);
	if (typeof email.to !== 'string' || email.to === '')
		problems.push(`to must be a non-empty string (got ${JSON.stringify(email.to)})`);
	if (!Number.isInteger(email.ticketId)) problems.push(`ticketId must be an integer (got ${email.ticketId})`);
	if (typeof email.subject !== 'string')
		problems.push(`subject must be a string (got ${JSON.stringify(email.subject)})`);
	if (problems.length) throw new TypeError(`the mail provider refused the request: ${problems.join('; ')}`);
	return copyEmail(email);
}
