// The race as lanes: one lane per worker, each database operation a box in the column of its step, a wait
// drawn as a wait until the worker runs again, the unique violation and the rollback marked. The race view
// (race.ts) draws them up to the step it shows.
import type { RaceSchedule, RaceWorker } from '#harness/race/schedules.ts';
import type { TraceLine } from '#harness/scheduler/trace.ts';
import { briefly } from '#harness/core/words.ts';
import { h } from './dom.ts';

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

// The last step of the trace (0 for none yet).
export const lastStep = (trace: readonly TraceLine[]) => Math.max(0, ...trace.map((line) => line.step));
// Step 0 holds what happens before the first scheduled operation (a BEGIN); without any, lanes start at 1.
export const firstStep = (trace: readonly TraceLine[]) => (trace.some((line) => line.step === 0) ? 0 : 1);

// The lanes, shown up to step `at`: a row naming the steps, then one lane per worker.
export function lanes(schedule: RaceSchedule, trace: TraceLine[], at: number) {
	const first = firstStep(trace);
	const steps = Array.from({ length: lastStep(trace) + 1 - first }, (_, i) => i + first);
	const columns = `5.5rem repeat(${steps.length}, minmax(5.5rem, 1fr))`;
	const head = [
		h('div', { class: 'lane-name' }, 'step'),
		...steps.map((step) =>
			h('div', { class: step === at ? 'step-head now' : 'step-head' }, step === 0 ? 'start' : String(step))
		)
	];
	// Workers on look-alike events are told apart by their whole identity; otherwise the event id is enough.
	const said = briefly(schedule.workers.map((w) => w.event));
	return h(
		'div',
		{
			class: 'lanes',
			style: `grid-template-columns: ${columns}`,
			role: 'img',
			'aria-label': 'The race as lanes; the text version follows'
		},
		head,
		schedule.workers.flatMap((worker) => lane(worker, said, trace, steps, at))
	);
}

type Said = ReturnType<typeof briefly>;

// One worker's lane: its name and event, then one cell a step.
function lane(worker: RaceWorker, said: Said, trace: TraceLine[], steps: number[], at: number) {
	const waits = waitingSteps(trace, worker.name);
	const about = `${said(worker.event)} "${worker.event.subject}"${worker.crashAfter ? `, crashes after ${worker.crashAfter}` : ''}`;
	return [
		h('div', { class: 'lane-name', title: about }, h('strong', {}, worker.name), h('small', {}, ` ${about}`)),
		...steps.map((step) => cell(worker.name, trace, step, at, waits.has(step)))
	];
}

// A worker's step, once shown: its operations as boxes, and "waiting…" while it waits on another worker.
function cell(worker: string, trace: TraceLine[], step: number, at: number, waits: boolean) {
	const shown = step <= at;
	const boxes = trace
		.filter((line) => line.worker === worker && line.step === step)
		.map((line) => {
			const box = boxOf(line);
			return h('div', { class: `box ${box.kind}`, title: line.text, 'data-kind': box.kind }, box.label);
		});
	const waiting = waits ? h('div', { class: 'box waiting', 'data-kind': 'waiting' }, 'waiting…') : null;
	return h(
		'div',
		{
			class: `cell${step === at ? ' now' : ''}${shown ? '' : ' later'}`,
			'data-lane': worker,
			'data-at': step
		},
		shown ? [...boxes, waiting] : null
	);
}
