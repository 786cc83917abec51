// The race drawn: choose one of 03's race schedules, the code and the interleaving, play it in the sandbox,
// and step through its lanes (lanes.ts) forward and back, with the trace in sentences and what it left.
import type { RaceImplementation, RaceSchedule } from '#harness/race/schedules.ts';
import { tellTrace, type TraceLine } from '#harness/scheduler/trace.ts';
import { h, redraw, replace, stepKeys } from './dom.ts';
import { firstStep, lanes, lastStep } from './lanes.ts';
import type { RaceReply } from './protocol.ts';
import type { Sandbox } from './sandbox.ts';
import { sourceLabel } from './sides.ts';

const implementations: { value: RaceImplementation; label: string }[] = [
	{ value: 'separate', label: 'separate.ts (given: three separate commits)' },
	{ value: 'atomic', label: 'atomic.ts (yours: one transaction)' }
];

// What the view shows: the schedule chosen, the reply to the last play (or why there is none), and the step.
type Racing = { schedule: RaceSchedule; reply: RaceReply | null; problem: string | null; at: number };
type Go = (to: number) => void;

// The form above; below it the race as played, at the step shown. Each play asks the sandbox again.
export function raceView(root: HTMLElement, schedules: RaceSchedule[], sandbox: Sandbox): void {
	const now: Racing = {
		schedule: schedules.find((s) => s.name === 'two-workers-alternate') ?? schedules[0]!,
		reply: null,
		problem: null,
		at: 0
	};
	const { form, pick, order } = raceForm(schedules, now.schedule, {
		chooseSchedule: () => chooseSchedule(),
		play: () => void play()
	});
	const stage = h('div', { class: 'stage', 'aria-live': 'polite', tabindex: -1 });
	root.append(form, stage);
	stepKeys(root, { back: () => go(now.at - 1), next: () => go(now.at + 1), end: () => go(Infinity) });

	const trace = () => now.reply?.trace ?? [];

	function chooseSchedule(): void {
		now.schedule = schedules.find((s) => s.name === pick.value)!;
		order.value = now.schedule.interleaving.join(' ');
		void play();
	}

	function go(to: number): void {
		now.at = Math.max(firstStep(trace()), Math.min(lastStep(trace()), to));
		render();
	}

	async function play(): Promise<void> {
		const implementation = (form.elements.namedItem('implementation') as RadioNodeList)
			.value as RaceImplementation;
		const interleaving = order.value.toUpperCase().match(/[A-Z]+/g) ?? [];
		now.reply = null;
		now.problem = unknownWorkers(now.schedule, interleaving);
		if (!now.problem) {
			try {
				now.reply = await sandbox.race({
					kind: 'race',
					schedule: now.schedule.name,
					implementation,
					interleaving
				});
			} catch (error) {
				now.problem = error instanceof Error ? error.message : String(error);
			}
		}
		now.at = firstStep(trace());
		render();
	}

	const render = () => redraw(stage, () => drawRace(stage, now, go));

	order.value = now.schedule.interleaving.join(' ');
	void play();
}

// The schedule, the code (separate.ts or atomic.ts) and the interleaving, and Play the race.
function raceForm(
	schedules: RaceSchedule[],
	schedule: RaceSchedule,
	on: { chooseSchedule: () => void; play: () => void }
) {
	const pick = h(
		'select',
		{ 'data-race': 'schedule', onchange: () => on.chooseSchedule() },
		schedules.map((s) => h('option', { value: s.name, selected: s === schedule }, s.title))
	);
	const order = h('input', { type: 'text', 'data-race': 'interleaving', size: 40, spellcheck: 'false' });
	const form = h(
		'form',
		{ class: 'race-form', onsubmit: (event: Event) => (event.preventDefault(), on.play()) },
		h('label', {}, 'Schedule ', pick),
		h(
			'fieldset',
			{},
			h('legend', {}, 'Code'),
			implementations.map((option, i) =>
				h(
					'label',
					{},
					h('input', { type: 'radio', name: 'implementation', value: option.value, checked: i === 0 }),
					` ${option.label}`
				)
			)
		),
		h('label', {}, 'Interleaving (whose operation runs at each step) ', order),
		h('button', { type: 'submit', 'data-race': 'play' }, 'Play the race')
	);
	return { form, pick, order };
}

// An interleaving may name only the schedule's workers: the names it has that are not, said, or null.
function unknownWorkers(schedule: RaceSchedule, interleaving: string[]): string | null {
	const names = schedule.workers.map((w) => w.name);
	const unknown = interleaving.filter((name) => !names.includes(name));
	return unknown.length
		? `The interleaving names ${unknown.join(', ')}, but the workers are ${names.join(', ')}.`
		: null;
}

// The race at the step shown: its story, whose code, the steps, the lanes, the words, and what it left.
function drawRace(stage: HTMLElement, { schedule, reply, problem, at }: Racing, go: Go): void {
	if (!reply) {
		replace(
			stage,
			problem
				? h('pre', { class: 'broke', role: 'alert', 'data-broke': '' }, problem)
				: h('p', { class: 'loading' }, 'Playing…')
		);
		return;
	}
	const trace = reply.trace;
	const done = at >= lastStep(trace);
	replace(
		stage,
		h('h3', {}, schedule.title),
		h('p', { class: 'story' }, schedule.story),
		reply.shown === 'given'
			? h(
					'p',
					{ class: 'source', 'data-source': 'given' },
					`${reply.file}: given, not yours to change (its bug is the lesson)`
				)
			: sourceLabel({ ...reply, shown: reply.shown }),
		raceControls(trace, at, go),
		reply.broke ? h('pre', { class: 'broke', role: 'alert', 'data-broke': '' }, reply.broke) : null,
		lanes(schedule, trace, at),
		h(
			'details',
			{ class: 'words', open: true },
			h('summary', {}, 'Read this race'),
			h(
				'pre',
				{ 'data-race': 'words' },
				tellTrace(trace.filter((line) => line.step <= at)) || '(nothing yet)'
			)
		),
		done ? afterTheRun(schedule, reply) : null
	);
}

// ← Back, which step this is, Step → and Show the end.
function raceControls(trace: TraceLine[], at: number, go: Go) {
	const last = lastStep(trace);
	const done = at >= last;
	return h(
		'div',
		{ class: 'controls', role: 'group', 'aria-label': 'Race steps' },
		h(
			'button',
			{ type: 'button', 'data-step': 'back', disabled: at <= firstStep(trace), onclick: () => go(at - 1) },
			'← Back'
		),
		h(
			'span',
			{ class: 'counter', 'data-counter': '' },
			at === 0 ? `Start, of ${last} steps` : `Step ${at} of ${last}`
		),
		h('button', { type: 'button', 'data-step': 'next', disabled: done, onclick: () => go(at + 1) }, 'Step →'),
		h(
			'button',
			{ type: 'button', 'data-step': 'end', disabled: done, onclick: () => go(Infinity) },
			'Show the end'
		)
	);
}

// Once the last step is shown: each worker's answer, the tickets and receipts left, and the verdict.
function afterTheRun(schedule: RaceSchedule, reply: RaceReply) {
	return h(
		'div',
		{ class: 'after', 'data-race': 'after' },
		h('h4', {}, 'After the run'),
		h('p', {}, `Answers: ${reply.answers.join('; ')}.`),
		h('p', {}, `Tickets: ${reply.tickets.join('; ') || 'none'}.`),
		h('p', {}, `Receipts: ${reply.receipts.join('; ') || 'none'}.`),
		reply.disagreement
			? h(
					'div',
					{ class: 'disagreement' },
					h('p', {}, `Your code disagrees with schedules/race/${schedule.name}.json. The test says:`),
					h('pre', {}, reply.disagreement)
				)
			: reply.judged
				? h('p', {}, `Just what schedules/race/${schedule.name}.json expects.`)
				: h(
						'p',
						{},
						'An interleaving of your own: no schedule says what it should leave, so nothing is judged.'
					)
	);
}
