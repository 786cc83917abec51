// Playback: a handler schedule, delivery by delivery, on both handlers side by side, with a guess first.
import type { HandlerSchedule } from '#harness/handler/schedules.ts';
import { describeDelivery, saidOutcome } from '#harness/core/words.ts';
import { h, redraw, replace, stepKeys } from './dom.ts';
import type { HandlersReply, SideRun } from './protocol.ts';
import type { Sandbox } from './sandbox.ts';
import { disagreementPanel, sidePanel, sideTitles } from './sides.ts';

const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

// "1 ticket, 1 receipt"
const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

// The scene as sentences, every delivery: the lesson's "Read this scene".
export function sceneInWords(schedule: HandlerSchedule, sides: SideRun[]): string[] {
	return schedule.deliveries.map((_, i) => {
		const said = sides.map((side) => {
			const step = side.steps[i];
			if (!step) return `${sideTitles[side.name].toLowerCase()}: stopped before this delivery`;
			const { tickets, receipts } = step.db;
			return `${sideTitles[side.name].toLowerCase()} ${saidOutcome(step.outcome)}, leaving ${counted(tickets.length, 'ticket')} and ${counted(receipts.length, 'receipt')}`;
		});
		return `${describeDelivery(schedule, i)}: ${said.join('; ')}.`;
	});
}

type Guess = { left: string; right: string };
// Where the learner is: the scene, how many of its deliveries are shown, what the sandbox answered (or why it
// could not), the guess being typed for the next step, and the one made before the step now shown.
type Watching = {
	scene: number;
	step: number;
	reply: HandlersReply | null;
	problem: string | null;
	guess: Guess | null;
	lastGuess: (Guess & { at: number }) | null;
};
type Go = (to: number) => void;
type Guessed = (side: keyof Guess, value: string) => void;

// The scene buttons, and the chosen scene below them: the sandbox plays a scene once, when it is chosen.
export function playback(root: HTMLElement, schedules: HandlerSchedule[], sandbox: Sandbox): void {
	const at: Watching = { scene: 0, step: 0, reply: null, problem: null, guess: null, lastGuess: null };
	const picker = h('div', { class: 'scenes', role: 'group', 'aria-label': 'Scenes' });
	const stage = h('div', { class: 'stage', 'aria-live': 'polite', tabindex: -1 });
	root.append(picker, stage);
	stepKeys(root, { back: () => go(at.step - 1), next: () => go(at.step + 1), end: () => go(Infinity) });

	function go(to: number): void {
		stepTo(at, to, schedules[at.scene]!.deliveries.length);
		render();
	}

	async function choose(index: number): Promise<void> {
		at.scene = index;
		at.step = 0;
		at.reply = null;
		at.problem = null;
		at.lastGuess = null;
		render();
		try {
			at.reply = await sandbox.handlers({ kind: 'handlers', schedule: schedules[index]!.name });
			if (reducedMotion()) at.step = schedules[index]!.deliveries.length;
		} catch (error) {
			at.problem = error instanceof Error ? error.message : String(error);
		}
		if (at.scene === index) render();
	}

	const guessed: Guessed = (side, value) => {
		at.guess ??= { left: '', right: '' };
		at.guess[side] = value;
	};

	const render = () =>
		redraw(stage, () => {
			replace(
				picker,
				sceneButtons(schedules, at.scene, (i) => void choose(i))
			);
			drawScene(stage, schedules[at.scene]!, at, go, guessed);
		});

	void choose(0);
}

// One step forward keeps the guess typed for it, to check there; any other move forgets the last guess.
function stepTo(at: Watching, to: number, total: number): void {
	const next = Math.max(0, Math.min(total, to));
	if (next === at.step + 1 && at.guess) at.lastGuess = { ...at.guess, at: next };
	else if (next !== at.step) at.lastGuess = null;
	at.step = next;
	at.guess = null;
}

// One button a scene, the lesson's five numbered first.
function sceneButtons(schedules: HandlerSchedule[], scene: number, choose: (index: number) => void) {
	return schedules.map((s, i) =>
		h(
			'button',
			{
				type: 'button',
				'aria-pressed': i === scene ? 'true' : 'false',
				'data-scene': s.name,
				onclick: () => choose(i)
			},
			`${i < 5 ? `${i + 1}. ` : ''}${s.title}`
		)
	);
}

// The scene as far as the learner has come: its story, the steps, the guess, both sides, and its words.
function drawScene(
	stage: HTMLElement,
	schedule: HandlerSchedule,
	at: Watching,
	go: Go,
	guessed: Guessed
): void {
	const { reply, problem, step } = at;
	const sides = reply?.sides ?? [];
	replace(
		stage,
		h('h3', {}, schedule.title),
		h('p', { class: 'story' }, schedule.story),
		stepControls(step, schedule.deliveries.length, reply !== null, go),
		problem ? h('pre', { class: 'broke', role: 'alert', 'data-broke': '' }, problem) : null,
		reply ? null : problem ? null : h('p', { class: 'loading' }, 'Playing…'),
		guessPrompt(schedule, step, guessed),
		guessCheck(at),
		h(
			'div',
			{ class: 'sides' },
			sides.map((side) => sidePanel(side, schedule.deliveries, step))
		),
		sides.map((side) => disagreementPanel(side, `schedules/handler/${schedule.name}.json`)),
		reply ? sceneWords(schedule, sides) : null
	);
}

// ← Back, where the scene is, Deliver next → and Show the end (once the sandbox has answered).
function stepControls(step: number, total: number, answered: boolean, go: Go) {
	return h(
		'div',
		{ class: 'controls', role: 'group', 'aria-label': 'Playback controls' },
		h(
			'button',
			{ type: 'button', 'data-step': 'back', disabled: step === 0, onclick: () => go(step - 1) },
			'← Back'
		),
		h(
			'span',
			{ class: 'counter', 'data-counter': '' },
			step === 0 ? `Before delivery 1 of ${total}` : `Step ${step} of ${total}`
		),
		h(
			'button',
			{
				type: 'button',
				'data-step': 'next',
				disabled: step >= total || !answered,
				onclick: () => go(step + 1)
			},
			'Deliver next →'
		),
		h(
			'button',
			{
				type: 'button',
				'data-step': 'end',
				disabled: step >= total || !answered,
				onclick: () => go(Infinity)
			},
			'Show the end'
		)
	);
}

// Before each delivery: how many tickets will each side have after it?
function guessPrompt(schedule: HandlerSchedule, step: number, guessed: Guessed) {
	if (step >= schedule.deliveries.length) return null;
	const field = (side: keyof Guess, label: string) =>
		h(
			'label',
			{},
			`${label} `,
			h('input', {
				type: 'number',
				min: 0,
				max: 9,
				inputmode: 'numeric',
				'data-guess': side,
				oninput: (event: Event) => guessed(side, (event.target as HTMLInputElement).value)
			})
		);
	return h(
		'div',
		{ class: 'guess' },
		h(
			'p',
			{},
			h('strong', {}, 'Guess first. '),
			`Next: ${describeDelivery(schedule, step)}. How many tickets will each side have after it?`
		),
		field('left', sideTitles['create-every-time']),
		' ',
		field('right', sideTitles['receipt-in-commit'])
	);
}

// After the step the guess was for: the tickets each side has now, against the guess.
function guessCheck({ lastGuess, reply, step }: Watching) {
	if (!lastGuess || !reply || lastGuess.at !== step) return null;
	const [left, right] = reply.sides.map((side) => side.steps[step - 1]?.db.tickets.length);
	const said = (guessed: string, real: number | undefined) =>
		guessed === ''
			? `${real}`
			: Number(guessed) === real
				? `${real}, as you guessed`
				: `${real}, not ${guessed}`;
	return h(
		'p',
		{ class: 'guess-check', 'data-guess-check': '' },
		`Tickets now: ${said(lastGuess.left, left)} on the left; ${said(lastGuess.right, right)} on the right.`
	);
}

// "Read this scene": the story, and every delivery in sentences.
function sceneWords(schedule: HandlerSchedule, sides: SideRun[]) {
	return h(
		'details',
		{ class: 'words' },
		h('summary', {}, 'Read this scene'),
		h('p', {}, schedule.story),
		h(
			'ol',
			{},
			sceneInWords(schedule, sides).map((line) => h('li', {}, line))
		)
	);
}
