// Judges a played endpoint schedule request by request, and says in the lesson's words where it went another way.
import { canonical, maxKeyLength, readmeLink, routePaths, rules } from './contract.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { sameLines, sideBySide } from '../core/report.ts';
import { saidReceipt, saidTicket } from '../core/words.ts';
import type { Answer, PlayedEndpoint } from './play.ts';
import {
	answerLimitMs,
	bodyOf,
	defaultClient,
	type EndpointSchedule,
	type ExpectedAnswer,
	type Send
} from './schedules.ts';

const sends = (schedule: EndpointSchedule) =>
	schedule.steps.flatMap((step, i) => (step.do === 'send' ? [{ step: i, send: step }] : []));

function shortBody(body: string): string {
	return body.length > 70 ? `${body.slice(0, 67)}…` : body;
}

// "request 2 (POST /api/tickets, key "k-1" again, the same body; the answer is lost)"
function describeRequest(schedule: EndpointSchedule, number: number): string {
	const all = sends(schedule);
	const { send } = all[number - 1]!;
	const notes: string[] = [`POST ${routePaths[send.route]}`];
	if (send.route === 'tickets') {
		const earlier = all
			.slice(0, number - 1)
			.filter(
				(other) => other.send.key === send.key && send.key !== undefined && other.send.client === send.client
			);
		if (send.anonymous) notes.push('no Authorization');
		else if (send.authorization !== undefined)
			notes.push(`Authorization ${JSON.stringify(send.authorization)}`);
		else if (send.client !== undefined) notes.push(`from client ${JSON.stringify(send.client)}`);
		if (send.query !== undefined) notes.push(`the query ${JSON.stringify(send.query)}`);
		if (send.keyLines !== undefined) notes.push(`the key on ${send.keyLines.length} header lines`);
		else if (send.key === undefined) notes.push('no Idempotency-Key');
		else if (send.key === '') notes.push('an empty Idempotency-Key');
		else if (send.key.length > 40) notes.push(`a key of ${send.key.length} characters`);
		else notes.push(`key ${JSON.stringify(send.key)}${earlier.length ? ' again' : ''}`);
		if (earlier.length) notes.push(sameBody(earlier[0]!.send, send) ? 'the same body' : 'another body');
	}
	if (send.note) notes.push(send.note);
	const faults: Record<string, string> = {
		'before-commit': 'the worker dies before its commit',
		'after-commit': 'its answer is lost after the commit',
		'step-fails': "the ticket's insert fails",
		held: 'held just before its commit'
	};
	if (faults[send.fault]) notes.push(faults[send.fault]!);
	if (send.waits) notes.push('while another request holds this key');
	return `request ${number} (${notes.join(', ')})`;
}

function sameBody(a: Send, b: Send): boolean {
	const read = (send: Send) => {
		const text = bodyOf(send).toString();
		return canonical(parsed(text) ?? text);
	};
	return read(a) === read(b);
}

export function saidAnswer(answer: Answer | null | undefined): string {
	if (!answer) return 'no answer';
	const replayed = answer.headers['idempotent-replayed'] === 'true' ? ' (replayed)' : '';
	return `${answer.status} ${shortBody(answer.body)}${replayed}`;
}

function saidExpected(expected: ExpectedAnswer, answers: (Answer | null)[]): string {
	if (expected.status === null) return 'no answer';
	const parts = [String(expected.status)];
	if (expected.json !== undefined) parts.push(JSON.stringify(expected.json));
	if (expected.sameAs !== undefined)
		parts.push(`= answer ${expected.sameAs}: ${shortBody(answers[expected.sameAs - 1]?.body ?? '?')}`);
	if (expected.problem !== undefined) parts.push(`problem about "${expected.problem}"`);
	if (expected.rule !== undefined) parts.push(`refused by rule "${expected.rule}"`);
	if (expected.replayed) parts.push('(replayed)');
	return parts.join(' ');
}

function parsed(body: string): unknown {
	try {
		return JSON.parse(body);
	} catch {
		return undefined;
	}
}

// What is wrong with one answer; empty when it is what the schedule expects.
function answerProblems(
	expected: ExpectedAnswer,
	answer: Answer | null,
	answers: (Answer | null)[]
): string[] {
	if (expected.status === null)
		return answer
			? [`expected no answer (the worker is gone), but one came back: ${saidAnswer(answer)}`]
			: [];
	if (!answer) return [`expected ${expected.status}, but the connection closed with no answer`];
	const problems: string[] = [];
	if (answer.status !== expected.status)
		problems.push(`expected status ${expected.status}, got ${answer.status}`);
	if (expected.json !== undefined && canonical(parsed(answer.body)) !== canonical(expected.json))
		problems.push(`expected the body ${JSON.stringify(expected.json)}, got ${shortBody(answer.body)}`);
	if (expected.sameAs !== undefined) {
		const first = answers[expected.sameAs - 1];
		if (first && (first.body !== answer.body || first.status !== answer.status))
			problems.push(
				`expected answer ${expected.sameAs} again byte for byte (${first.status} ${shortBody(first.body)}), got ${answer.status} ${shortBody(answer.body)}`
			);
	}
	const replayed = answer.headers['idempotent-replayed'] === 'true';
	if (expected.replayed === true && !replayed)
		problems.push('expected the header Idempotent-Replayed: true, it is missing');
	if (expected.replayed === false && replayed)
		problems.push('expected no Idempotent-Replayed header: this answer is not a replay');
	if (expected.problem !== undefined) {
		const type = (answer.headers['content-type'] ?? '').split(';')[0]!.trim();
		const body = parsed(answer.body) as { title?: unknown; detail?: unknown; status?: unknown } | undefined;
		if (type !== 'application/problem+json')
			problems.push(`expected Content-Type application/problem+json (RFC 9457), got "${type}"`);
		else if (!body || typeof body.title !== 'string' || body.status !== answer.status)
			problems.push('expected a problem body with a title and the same status');
		else if (!`${body.title} ${body.detail ?? ''}`.toLowerCase().includes(expected.problem.toLowerCase()))
			problems.push(`expected the problem to name "${expected.problem}", it says: ${shortBody(answer.body)}`);
	}
	if (expected.rule !== undefined) problems.push(...ruleProblems(expected.rule, answer));
	return problems;
}

// What is wrong with an answer that should be the refusal named rule: its status, its words, its Link to the
// README, and Retry-After on a 409.
function ruleProblems(rule: keyof typeof rules.problems, answer: Answer): string[] {
	const { status, title, detail, section } = rules.problems[rule];
	const problems: string[] = [];
	if (answer.status !== status)
		return [`expected the refusal "${rule}" (${status} ${title}), got ${answer.status}`];
	const body = parsed(answer.body) as { title?: unknown; detail?: unknown } | undefined;
	if (body?.title !== title || body?.detail !== detail)
		problems.push(
			`expected the problem "${rule}" (title ${JSON.stringify(title)}, detail ${JSON.stringify(detail)}), it says: ${typeof body?.detail === 'string' ? JSON.stringify(body.detail) : shortBody(answer.body)}`
		);
	const link = readmeLink(section);
	if (answer.headers['link'] !== link)
		problems.push(`expected the header Link: ${link}, got ${answer.headers['link'] ?? 'none'}`);
	const retryAfter = status === 409 ? String(rules.retryAfterSeconds) : undefined;
	if (answer.headers['retry-after'] !== retryAfter)
		problems.push(
			retryAfter
				? `expected the header Retry-After: ${retryAfter}, got ${answer.headers['retry-after'] ?? 'none'}`
				: `expected no Retry-After header on a ${status}, got ${answer.headers['retry-after']}`
		);
	return problems;
}

// The usual mistake behind a wrong answer; null when there is no usual one.
function usualCause(schedule: EndpointSchedule, number: number, answer: Answer | null): string | null {
	const { send, step } = sends(schedule)[number - 1]!;
	const expected = send.expect;
	const got = answer?.status ?? null;
	const replayed = answer?.headers['idempotent-replayed'] === 'true';
	const waited = schedule.steps.slice(0, step).some((earlier) => earlier.do === 'wait');
	const idOf = (value: unknown) => (value as { id?: unknown; ticketId?: unknown } | undefined)?.id;
	if (expected.status === 500 && expected.replayed && got !== 500)
		return 'under remember: "everything" the failure is this key\'s answer, like Stripe: save it, and replay it to every retry.';
	if (expected.status === 201 && got !== null && got >= 500)
		return 'the failure was saved as this key\'s answer. Under remember: "successes" a failure is not saved, so a retry runs again.';
	if (expected.status === 422 && got !== 422)
		return "the same key with another body is another request: compare the body's fingerprint with the one saved with the key.";
	if (expected.status === 409 && got !== 409)
		return 'the first request with this key is still inside its transaction. The second must see that (lockKey) and answer 409, not wait or make a ticket.';
	if (expected.rule !== undefined && got !== rules.problems[expected.rule].status) {
		const { status, detail, section } = rules.problems[expected.rule];
		return `this request breaks the rule "${expected.rule}" (${detail}): refuse it with ${status} before any transaction, with refuse('${expected.rule}'). 06's README explains it under "${section}".`;
	}
	if (expected.status === 400 && got !== 400 && send.key !== undefined)
		return `a key must be there, not empty, at most ${maxKeyLength} characters, and free of control characters: refuse this one with 400 before doing any work.`;
	const client = (one: Send) => one.client ?? defaultClient;
	const strangers = sends(schedule)
		.slice(0, number - 1)
		.some((earlier) => earlier.send.key === send.key && client(earlier.send) !== client(send));
	if (expected.replayed === false && replayed && strangers)
		return "another client sent this key before: a key belongs to the client that sent it, so look it up, lock it and save it by client and key. Else a stranger who guesses a key reads another client's answer.";
	if (expected.replayed === false && replayed && waited)
		return "the key is older than the retention: it counts as forgotten, and this request is new. Is its age measured on the clock the routes are given (the schedule moves it), not on the machine's?";
	if (expected.replayed && got === 201 && !replayed)
		return 'the key was seen before, so this is a retry: find the saved record for the key (the Idempotency-Key the client sent) and send its answer back, not a new ticket.';
	const wantedId = idOf(expected.json);
	const gotId = idOf(answer ? parsed(answer.body) : undefined);
	if (typeof wantedId === 'number' && typeof gotId === 'number' && gotId > wantedId)
		return 'a ticket number that counts one too many: a ticket was kept from a request that should have left nothing.';
	return null;
}

function endRows(schedule: EndpointSchedule, played: PlayedEndpoint) {
	const end = played.end ?? { tickets: [], keys: [], receipts: [] };
	return [
		{ label: 'tickets', expected: schedule.end.tickets.map(saidTicket), actual: end.tickets.map(saidTicket) },
		{
			label: 'keys',
			expected: schedule.end.keys.map((key) => saidKey(key.client ?? defaultClient, key.key, key.status)),
			actual: end.keys.map((key) => saidKey(key.client, key.key, key.status))
		},
		{
			label: 'receipts',
			expected: schedule.end.receipts.map(saidReceipt),
			actual: end.receipts.map(saidReceipt)
		}
	];
}

// "k-1" → 201, and app's "k-1" → 201 for a key of a client other than the form.
function saidKey(client: string, key: string, status: number): string {
	return `${client === defaultClient ? '' : `${client}'s `}"${key}" → ${status}`;
}

function saidOutcome(outcome: PlayedEndpoint['outcomes'][number] | undefined): string {
	if (!outcome) return '(not sent)';
	return outcome.settled ? saidAnswer(outcome.answer) : '(still waiting)';
}

function transcript(schedule: EndpointSchedule, played: PlayedEndpoint, withEnd: boolean): string {
	const answers = played.outcomes.map((outcome) => outcome.answer);
	const rows = sends(schedule).map(({ send }, i) => ({
		label: `request ${i + 1}`,
		expected: [saidExpected(send.expect, answers)],
		actual: [saidOutcome(played.outcomes[i])]
	}));
	return sideBySide(withEnd ? [...rows, ...endRows(schedule, played)] : rows);
}

function heading(schedule: EndpointSchedule, played: PlayedEndpoint): string {
	return `Schedule "${schedule.name}" (${schedule.title}), remember: "${played.remember}": ${schedule.story}`;
}

// null when the endpoint did what the schedule expects; otherwise the message a learner reads.
export function judgeEndpoint(schedule: EndpointSchedule, played: PlayedEndpoint): string | null {
	const thrown = played.thrown[0];
	if (thrown) {
		const { error, request } = thrown;
		const where = request ? describeRequest(schedule, request) : `a request to ${thrown.path}`;
		if (error instanceof NotWrittenYet)
			return `${error.message}\n  (stopped at ${where} of schedule "${schedule.name}")`;
		const why = error instanceof Error ? error.message : String(error);
		return `${heading(schedule, played)}\nYour endpoint threw while answering ${where}: ${why}\n(The server answered 500.)\n\n${transcript(schedule, played, false)}`;
	}
	const answers = played.outcomes.map((outcome) => outcome.answer);
	for (const [i, { send }] of sends(schedule).entries()) {
		const outcome = played.outcomes[i];
		if (!outcome?.settled) continue;
		const problems = answerProblems(send.expect, outcome.answer, answers);
		if (problems.length === 0) continue;
		const cause = usualCause(schedule, i + 1, outcome.answer);
		const usually = cause ? `\nWhat this usually means: ${cause}\n` : '';
		const list = problems.map((problem) => `  - ${problem}`).join('\n');
		return `${heading(schedule, played)}\n${describeRequest(schedule, i + 1)}:\n${list}\n${usually}\nRequest by request, and what PostgreSQL held at the end:\n${transcript(schedule, played, true)}`;
	}
	if (played.stopped) {
		const at = played.stopped.step;
		const why = played.stopped.why.endsWith('no answer')
			? `${played.stopped.why} within ${answerLimitMs / 1000} seconds. Is a request waiting on a lock that never ends, or held at a commit it never reaches?`
			: `${played.stopped.why}.`;
		return `${heading(schedule, played)}\nAt step ${at + 1}: ${why}\n\n${transcript(schedule, played, false)}`;
	}
	const rows = endRows(schedule, played);
	const differ = rows.filter((row) => !sameLines(row.expected, row.actual)).map((row) => row.label);
	if (differ.length === 0) return null;
	return `${heading(schedule, played)}\nEvery answer was right, but at the end PostgreSQL's ${differ.join(' and ')} differ:\n\n${transcript(schedule, played, true)}`;
}
