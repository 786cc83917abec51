// The race drawn: one lane per worker, each database operation a box in the column of its step, a wait drawn
// as a wait until the worker runs again, the unique violation and the rollback marked. Step forward and back.
import type { RaceImplementation, RaceSchedule } from '#harness/race/schedules.ts';
import { briefly } from '#harness/core/words.ts';
import { tellTrace, type TraceLine } from '#harness/scheduler/trace.ts';
import { h, redraw, replace, stepKeys } from './dom.ts';
import type { RaceReply } from './protocol.ts';
import type { Sandbox } from './sandbox.ts';
import { sourceLabel } from './sides.ts';

type Kind =
	'begin' | 'read' | 'write' | 'wait' | 'violation' | 'rollback' | 'commit' | 'crash' | 'answer' | 'error';

// What kind of box a trace sentence is, and the few words written in it (the whole sentence is its title).
export function boxOf(line: TraceLine): { kind: Kind; label: string } {
	const text = line.text.slice(line.worker.length + 1);
	const ticket = /#\d+/.exec(text)?.[0] ?? '';
	if (/^begins a transaction/.test(text)) return { kind: 'begin', label: 'begin' };
	if (/^looks for a receipt/.test(text))
		return { kind: 'read', label: /none/.test(text) ? 'find receipt: none' : `find receipt: ${ticket}` };
	if (/waits for it to end/.test(text)) {
		const holder = /(\S+)'s open transaction/.exec(text)?.[1] ?? 'another worker';
		return { kind: 'wait', label: `save receipt: waits for ${holder}` };
	}
	if (/unique violation/.test(text) && !/^stops with/.test(text))
		return { kind: 'violation', label: 'unique violation' };
	if (/rolls back/.test(text)) {
		const gone = ticket ? `: ${ticket} gone` : '';
		return {
			kind: 'rollback',
			label: /^crashes/.test(text) ? `crash, rolled back${gone}` : `rollback${gone}`
		};
	}
	if (/^crashes/.test(text)) return { kind: 'crash', label: 'crash' };
	if (/^commits/.test(text)) return { kind: 'commit', label: 'commit' };
	if (/^saves ticket/.test(text)) return { kind: 'write', label: `save ticket ${ticket}` };
	if (/^saves the receipt/.test(text))
		return { kind: 'write', label: `save receipt → ${/→ (#\d+)/.exec(text)?.[1] ?? ''}` };
	if (/^answers/.test(text))
		return { kind: 'answer', label: text.replace(/^answers /, '').replace(/\.$/, '') };
	if (/^stops with an error: (\S+ \S+)/.test(text))
		return {
			kind: 'error',
			label: `error: ${/^stops with an error: ([a-z]+ [a-z]+)/.exec(text)?.[1] ?? ''}`
		};
	return { kind: 'error', label: text.replace(/\.$/, '') };
}

// Per worker, the steps spent waiting: from the step after a wait until its next step.
export function waitingSteps(trace: readonly TraceLine[], worker: string): Set<number> {
	const own = trace.filter((line) => line.worker === worker);
	const waiting = new Set<number>();
	own.forEach((line, i) => {
		if (boxOf(line).kind !== 'wait') return;
		const resumed = own[i + 1]?.step ?? Math.max(...trace.map((l) => l.step)) + 1;
		for (let step = line.step + 1; step < resumed; step++) waiting.add(step);
	});
	return waiting;
}

const implementations: { value: RaceImplementation; label: string }[] = [
	{ value: 'separate', label: 'separate.ts (given: three separate commits)' },
	{ value: 'atomic', label: 'atomic.ts (yours: one transaction)' }
];

export function raceView(root: HTMLElement, schedules: RaceSchedule[], sandbox: Sandbox): void {
	let reply: RaceReply | null = null;
	let problem: string | null = null;
	let at = 0;
	let schedule = schedules.find((s) => s.name === 'two-workers-alternate') ?? schedules[0]!;

	const pick = h(
		'select',
		{ 'data-race': 'schedule', onchange: () => chooseSchedule() },
		schedules.map((s) => h('option', { value: s.name, selected: s === schedule }, s.title))
	);
	const order = h('input', { type: 'text', 'data-race': 'interleaving', size: 40, spellcheck: 'false' });
	const form = h(
		'form',
		{ class: 'race-form', onsubmit: (event: Event) => (event.preventDefault(), void play()) },
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
	const stage = h('div', { class: 'stage', 'aria-live': 'polite', tabindex: -1 });
	root.append(form, stage);
	stepKeys(root, { back: () => go(at - 1), next: () => go(at + 1), end: () => go(Infinity) });

	const lastStep = () => Math.max(0, ...(reply?.trace ?? []).map((line) => line.step));
	// Step 0 holds what happens before the first scheduled operation (a BEGIN); without any, lanes start at 1.
	const firstStep = () => ((reply?.trace ?? []).some((line) => line.step === 0) ? 0 : 1);

	function chooseSchedule(): void {
		schedule = schedules.find((s) => s.name === pick.value)!;
		order.value = schedule.interleaving.join(' ');
		void play();
	}

	function go(to: number): void {
		at = Math.max(firstStep(), Math.min(lastStep(), to));
		render();
	}

	async function play(): Promise<void> {
		const implementation = (form.elements.namedItem('implementation') as RadioNodeList)
			.value as RaceImplementation;
		const names = schedule.workers.map((w) => w.name);
		const interleaving = order.value.toUpperCase().match(/[A-Z]+/g) ?? [];
		const unknown = interleaving.filter((name) => !names.includes(name));
		reply = null;
		problem = unknown.length
			? `The interleaving names ${unknown.join(', ')}, but the workers are ${names.join(', ')}.`
			: null;
		if (!problem) {
			try {
				reply = await sandbox.race({ kind: 'race', schedule: schedule.name, implementation, interleaving });
			} catch (error) {
				problem = error instanceof Error ? error.message : String(error);
			}
		}
		at = firstStep();
		render();
	}

	function lanes(trace: TraceLine[]) {
		const first = firstStep();
		const steps = Array.from({ length: lastStep() + 1 - first }, (_, i) => i + first);
		const columns = `5.5rem repeat(${steps.length}, minmax(5.5rem, 1fr))`;
		const head = [
			h('div', { class: 'lane-name' }, 'step'),
			...steps.map((step) =>
				h('div', { class: step === at ? 'step-head now' : 'step-head' }, step === 0 ? 'start' : String(step))
			)
		];
		const said = briefly(schedule.workers.map((w) => w.event));
		const rows = schedule.workers.flatMap((worker) => {
			const waits = waitingSteps(trace, worker.name);
			const about = `${said(worker.event)} "${worker.event.subject}"${worker.crashAfter ? `, crashes after ${worker.crashAfter}` : ''}`;
			return [
				h(
					'div',
					{ class: 'lane-name', title: about },
					h('strong', {}, worker.name),
					h('small', {}, ` ${about}`)
				),
				...steps.map((step) => {
					const shown = step <= at;
					const boxes = trace
						.filter((line) => line.worker === worker.name && line.step === step)
						.map((line) => {
							const box = boxOf(line);
							return h(
								'div',
								{ class: `box ${box.kind}`, title: line.text, 'data-kind': box.kind },
								box.label
							);
						});
					const waiting = waits.has(step)
						? h('div', { class: 'box waiting', 'data-kind': 'waiting' }, 'waiting…')
						: null;
					return h(
						'div',
						{
							class: `cell${step === at ? ' now' : ''}${shown ? '' : ' later'}`,
							'data-lane': worker.name,
							'data-at': step
						},
						shown ? [...boxes, waiting] : null
					);
				})
			];
		});
		return h(
			'div',
			{
				class: 'lanes',
				style: `grid-template-columns: ${columns}`,
				role: 'img',
				'aria-label': 'The race as lanes; the text version follows'
			},
			head,
			rows
		);
	}

	const render = () => redraw(stage, draw);

	function draw(): void {
		if (!reply) {
			replace(
				stage,
				problem
					? h('pre', { class: 'broke', role: 'alert', 'data-broke': '' }, problem)
					: h('p', { class: 'loading' }, 'Playing…')
			);
			return;
		}
		const last = lastStep();
		const trace = reply.trace;
		const done = at >= last;
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
			h(
				'div',
				{ class: 'controls', role: 'group', 'aria-label': 'Race steps' },
				h(
					'button',
					{ type: 'button', 'data-step': 'back', disabled: at <= firstStep(), onclick: () => go(at - 1) },
					'← Back'
				),
				h(
					'span',
					{ class: 'counter', 'data-counter': '' },
					at === 0 ? `Start, of ${last} steps` : `Step ${at} of ${last}`
				),
				h(
					'button',
					{ type: 'button', 'data-step': 'next', disabled: done, onclick: () => go(at + 1) },
					'Step →'
				),
				h(
					'button',
					{ type: 'button', 'data-step': 'end', disabled: done, onclick: () => go(Infinity) },
					'Show the end'
				)
			),
			reply.broke ? h('pre', { class: 'broke', role: 'alert', 'data-broke': '' }, reply.broke) : null,
			lanes(trace),
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
			done
				? h(
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
					)
				: null
		);
	}

	order.value = schedule.interleaving.join(' ');
	void play();
}
