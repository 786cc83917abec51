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

export function playback(root: HTMLElement, schedules: HandlerSchedule[], sandbox: Sandbox): void {
	let scene = 0;
	let step = 0;
	let reply: HandlersReply | null = null;
	let problem: string | null = null;
	let guess: { left: string; right: string } | null = null;
	let lastGuess: { left: string; right: string; at: number } | null = null;

	const picker = h('div', { class: 'scenes', role: 'group', 'aria-label': 'Scenes' });
	const stage = h('div', { class: 'stage', 'aria-live': 'polite', tabindex: -1 });
	root.append(picker, stage);
	stepKeys(root, { back: () => go(step - 1), next: () => go(step + 1), end: () => go(Infinity) });

	function go(to: number): void {
		const schedule = schedules[scene]!;
		const next = Math.max(0, Math.min(schedule.deliveries.length, to));
		if (next === step + 1 && guess) lastGuess = { ...guess, at: next };
		else if (next !== step) lastGuess = null;
		step = next;
		guess = null;
		render();
	}

	async function choose(index: number): Promise<void> {
		scene = index;
		step = 0;
		reply = null;
		problem = null;
		lastGuess = null;
		render();
		try {
			reply = await sandbox.handlers({ kind: 'handlers', schedule: schedules[index]!.name });
			if (reducedMotion()) step = schedules[index]!.deliveries.length;
		} catch (error) {
			problem = error instanceof Error ? error.message : String(error);
		}
		if (scene === index) render();
	}

	function guessPrompt(schedule: HandlerSchedule) {
		if (step >= schedule.deliveries.length) return null;
		const field = (side: 'left' | 'right', label: string) =>
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
					oninput: (event: Event) => {
						guess ??= { left: '', right: '' };
						guess[side] = (event.target as HTMLInputElement).value;
					}
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

	function guessCheck() {
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

	const render = () => redraw(stage, draw);

	function draw(): void {
		const schedule = schedules[scene]!;
		const total = schedule.deliveries.length;
		replace(
			picker,
			schedules.map((s, i) =>
				h(
					'button',
					{
						type: 'button',
						'aria-pressed': i === scene ? 'true' : 'false',
						'data-scene': s.name,
						onclick: () => void choose(i)
					},
					`${i < 5 ? `${i + 1}. ` : ''}${s.title}`
				)
			)
		);
		const controls = h(
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
					disabled: step >= total || !reply,
					onclick: () => go(step + 1)
				},
				'Deliver next →'
			),
			h(
				'button',
				{
					type: 'button',
					'data-step': 'end',
					disabled: step >= total || !reply,
					onclick: () => go(Infinity)
				},
				'Show the end'
			)
		);
		const sides = reply?.sides ?? [];
		replace(
			stage,
			h('h3', {}, schedule.title),
			h('p', { class: 'story' }, schedule.story),
			controls,
			problem ? h('pre', { class: 'broke', role: 'alert', 'data-broke': '' }, problem) : null,
			reply ? null : problem ? null : h('p', { class: 'loading' }, 'Playing…'),
			guessPrompt(schedule),
			guessCheck(),
			h(
				'div',
				{ class: 'sides' },
				sides.map((side) => sidePanel(side, schedule.deliveries, step))
			),
			sides.map((side) => disagreementPanel(side, `schedules/handler/${schedule.name}.json`)),
			reply
				? h(
						'details',
						{ class: 'words' },
						h('summary', {}, 'Read this scene'),
						h('p', {}, schedule.story),
						h(
							'ol',
							{},
							sceneInWords(schedule, sides).map((line) => h('li', {}, line))
						)
					)
				: null
		);
	}

	void choose(0);
}
