import { describe, expect, it } from 'vitest';
import { KeyReused, MailProvider, ManualClock, ProviderDown } from './mail-provider.ts';
import type { Email } from './model.ts';

const email: Email = {
	key: 'ticket-confirmation/acme/1',
	to: 'acme',
	ticketId: 1,
	subject: 'Cannot sign in'
};

describe('the fake mail provider', () => {
	it('delivers an email and keeps it in its inbox', async () => {
		const provider = new MailProvider();
		expect(await provider.send(email)).toEqual({ messageId: 'msg-1', duplicate: false });
		expect(provider.inbox()).toEqual([{ ...email, messageId: 'msg-1', at: 0 }]);
		expect(provider.calls()).toEqual([{ key: email.key, answer: 'delivered', at: 0 }]);
	});

	it('delivers the same key once within its window, and answers the repeat as before', async () => {
		const clock = new ManualClock();
		const provider = new MailProvider({ windowSeconds: 100, clock });
		await provider.send(email);
		clock.advance(99);
		expect(await provider.send({ ...email })).toEqual({ messageId: 'msg-1', duplicate: true });
		expect(provider.inbox()).toHaveLength(1);
		expect(provider.calls().map((call) => call.answer)).toEqual(['delivered', 'duplicate']);
	});

	it('forgets a key once its window has passed, and delivers again', async () => {
		const clock = new ManualClock();
		const provider = new MailProvider({ windowSeconds: 100, clock });
		await provider.send(email);
		clock.advance(100);
		expect(await provider.send(email)).toEqual({ messageId: 'msg-2', duplicate: false });
		expect(provider.inbox().map((delivered) => [delivered.messageId, delivered.at])).toEqual([
			['msg-1', 0],
			['msg-2', 100]
		]);
	});

	it('remembers a key for a day unless told otherwise', async () => {
		const clock = new ManualClock();
		const provider = new MailProvider({ clock });
		await provider.send(email);
		clock.advance(24 * 60 * 60 - 1);
		expect((await provider.send(email)).duplicate).toBe(true);
		clock.advance(1);
		expect((await provider.send(email)).duplicate).toBe(false);
	});

	it('delivers two emails with two keys, even with the same words', async () => {
		const provider = new MailProvider();
		await provider.send(email);
		await provider.send({ ...email, key: 'ticket-confirmation/acme/2', ticketId: 2 });
		expect(provider.inbox().map((delivered) => delivered.key)).toEqual([
			'ticket-confirmation/acme/1',
			'ticket-confirmation/acme/2'
		]);
	});

	it('refuses a key that comes back with a different email, and delivers nothing', async () => {
		const provider = new MailProvider();
		await provider.send(email);
		const other = { ...email, to: 'globex' };
		await expect(provider.send(other)).rejects.toThrow(KeyReused);
		await expect(provider.send(other)).rejects.toThrow(/already sent an email to acme for #1/);
		expect(provider.inbox()).toHaveLength(1);
		expect(provider.calls().map((call) => call.answer)).toEqual(['delivered', 'refused', 'refused']);
	});

	it('throws while it is down, delivers nothing, and remembers no key', async () => {
		const provider = new MailProvider();
		provider.goDown();
		expect(provider.isDown).toBe(true);
		await expect(provider.send(email)).rejects.toThrow(ProviderDown);
		expect(provider.inbox()).toEqual([]);
		provider.comeBack();
		expect(await provider.send(email)).toEqual({ messageId: 'msg-1', duplicate: false });
		expect(provider.calls().map((call) => call.answer)).toEqual(['down', 'delivered']);
	});

	it('answers later, never synchronously', () => {
		const provider = new MailProvider();
		const sending = provider.send(email);
		expect(provider.inbox()).toEqual([]);
		return sending;
	});

	it('refuses a malformed email before doing anything, naming each field', async () => {
		const provider = new MailProvider();
		const bad = { ...email, key: '', ticketId: 1.5 };
		await expect(provider.send(bad)).rejects.toThrow(
			'the mail provider refused the request: key must be a non-empty string (got ""); ticketId must be an integer (got 1.5)'
		);
		await expect(provider.send(undefined as unknown as Email)).rejects.toThrow(/needs an email/);
		expect(provider.calls()).toEqual([]);
	});

	it('keeps its own copies: changing what was sent or what it hands out changes nothing', async () => {
		const provider = new MailProvider();
		const mine = { ...email };
		await provider.send(mine);
		mine.subject = 'Changed after sending';
		const inbox = provider.inbox();
		inbox[0]!.to = 'mallory';
		inbox.push({ ...email, messageId: 'msg-9', at: 0 });
		provider.calls().pop();
		expect(provider.inbox()).toEqual([{ ...email, messageId: 'msg-1', at: 0 }]);
		expect(provider.calls()).toHaveLength(1);
	});

	it('rejects a window that is not above zero, and a clock moved backwards', () => {
		expect(() => new MailProvider({ windowSeconds: 0 })).toThrow(/windowSeconds must be above 0/);
		expect(() => new ManualClock().advance(-1)).toThrow(/only moves forward/);
	});
});
