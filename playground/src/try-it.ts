// Try it: the learner picks the event and what happens to the worker, delivers, and watches both sides.
import { handlerNames, type Delivery, type HandlerSchedule } from '#harness/handler/schedules.ts';
import type { Fault, Webhook } from '#harness/core/model.ts';
import { describeDelivery, saidOutcome } from '#harness/core/words.ts';
import { h, replace } from './dom.ts';
import { files, type HandlersReply, type SideRun, type Step } from './protocol.ts';
import type { Sandbox } from './sandbox.ts';
import { disagreementPanel, sidePanel } from './sides.ts';

export const maxDeliveries = 8;

const evt42: Webhook = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' };
export const events: { id: string; label: string; event: Webhook }[] = [
	{ id: 'evt-42', label: 'evt-42: "Cannot sign in"', event: evt42 },
	{ id: 'evt-43', label: 'evt-43: the same words, a new event', event: { ...evt42, eventId: 'evt-43' } },
	{
		id: 'same-key',
		label: 'evt-42 again, now saying "Cannot export report"',
		event: { ...evt42, subject: 'Cannot export report' }
	},
	{ id: 'other-tenant', label: 'evt-42 from another tenant (globex)', event: { ...evt42, tenant: 'globex' } }
];
export const faultChoices: { fault: Fault; label: string }[] = [
	{ fault: 'none', label: 'Nothing: the worker answers' },
	{ fault: 'before-commit', label: 'Crash before the commit' },
	{ fault: 'after-commit', label: 'Crash after the commit (the acknowledgment is lost)' }
];

// What the learner has done here: the deliveries so far, the reply for the first `answered` of them (or why
// there is none), and whether the sandbox is still playing them.
type Tries = {
	deliveries: Delivery[];
	reply: HandlersReply | null;
	answered: number;
	problem: string | null;
	busy: boolean;
};

// The form, and below it the deliveries so far on both sides: each Deliver plays them all again, from empty.
export function tryIt(root: HTMLElement, sandbox: Sandbox): void {
	const at: Tries = { deliveries: [], reply: null, answered: 0, problem: null, busy: false };
	const form = tryForm(
		() => void deliver(),
		() => reset()
	);
	const stage = h('div', { class: 'stage', 'aria-live': 'polite' });
	root.append(form, stage);

	const chosen = (name: string) => (form.elements.namedItem(name) as RadioNodeList).value;

	async function deliver(): Promise<void> {
		if (at.busy || at.deliveries.length >= maxDeliveries) return;
		const event = events.find((e) => e.id === chosen('event'))!.event;
		at.deliveries = [...at.deliveries, { event: { ...event }, fault: chosen('fault') as Fault }];
		await play();
	}

	function reset(): void {
		at.deliveries = [];
		at.reply = null;
		at.answered = 0;
		at.problem = null;
		render();
	}

	async function play(): Promise<void> {
		at.busy = true;
		at.problem = null;
		render();
		const asked = at.deliveries;
		try {
			const answer = await sandbox.handlers({ kind: 'try-it', deliveries: asked });
			if (asked === at.deliveries) [at.reply, at.answered] = [answer, asked.length];
		} catch (error) {
			if (asked === at.deliveries) at.problem = error instanceof Error ? error.message : String(error);
		}
		at.busy = false;
		render();
	}

	function render(): void {
		const full = at.deliveries.length >= maxDeliveries;
		(form.querySelector('[data-try="deliver"]') as HTMLButtonElement).disabled = full || at.busy;
		drawTries(stage, at);
	}

	render();
}

// Which event, what happens to the worker, and the Deliver and Reset buttons.
function tryForm(deliver: () => void, reset: () => void) {
	return h(
		'form',
		{ class: 'try-form', onsubmit: (event: Event) => (event.preventDefault(), deliver()) },
		radios(
			'event',
			'Which event arrives',
			events.map((e) => ({ value: e.id, label: e.label })),
			'evt-42'
		),
		radios(
			'fault',
			'What happens to the worker',
			faultChoices.map((f) => ({ value: f.fault, label: f.label })),
			'none'
		),
		h(
			'div',
			{ class: 'controls' },
			h('button', { type: 'submit', 'data-try': 'deliver' }, 'Deliver'),
			h('button', { type: 'button', 'data-try': 'reset', onclick: () => reset() }, 'Reset')
		)
	);
}

// A group of radio buttons, with `first` chosen.
function radios(name: string, legend: string, options: { value: string; label: string }[], first: string) {
	return h(
		'fieldset',
		{},
		h('legend', {}, legend),
		options.map((option) =>
			h(
				'label',
				{},
				h('input', { type: 'radio', name, value: option.value, checked: option.value === first }),
				` ${option.label}`
			)
		)
	);
}

// The deliveries so far, how many more there may be, and both sides after the last one answered.
function drawTries(stage: HTMLElement, { deliveries, reply, answered, problem, busy }: Tries): void {
	const count = deliveries.length;
	const full = count >= maxDeliveries;
	const sides = reply?.sides ?? [];
	replace(
		stage,
		h('h4', {}, 'Your deliveries'),
		count
			? h('ol', { class: 'deliveries', 'data-deliveries': '' }, deliveryList(deliveries, answered, sides))
			: h('p', { class: 'empty' }, 'Nothing delivered yet'),
		h(
			'p',
			{ class: 'counter', 'data-counter': '' },
			full
				? `${count} of ${maxDeliveries} deliveries: that is the most for one run. Reset to start again.`
				: `${count} of up to ${maxDeliveries} deliveries. A crash after the commit keeps the ticket, but the sender never hears back.`
		),
		problem ? h('pre', { class: 'broke', role: 'alert', 'data-broke': '' }, problem) : null,
		h(
			'div',
			{ class: 'sides' },
			(reply && !problem ? sides : emptySides()).map((side) => sidePanel(side, deliveries, answered))
		),
		reply && !problem ? sides.map((side) => disagreementPanel(side, "the solution's handler")) : null,
		busy ? h('p', { class: 'loading' }, 'Delivering…') : null
	);
}

// Each delivery in the tests' words, with what each side answered once the sandbox has played it.
function deliveryList(deliveries: Delivery[], answered: number, sides: SideRun[]) {
	// The deliveries as a schedule, so they are described in the tests' words.
	const asSchedule = (): Pick<HandlerSchedule, 'deliveries'> => ({ deliveries });
	return deliveries.map((_, i) => {
		// A side stopped by an error or a hang has no answer from here on.
		const said = (step: Step | undefined) => (step ? saidOutcome(step.outcome) : 'stopped');
		const answers = i < answered ? sides.map((side) => said(side.steps[i])) : [];
		return h(
			'li',
			{},
			describeDelivery(asSchedule(), i).replace(/^delivery \d+ /, ''),
			answers.length ? `: ${answers.join(' · ')}` : ''
		);
	});
}

// Before the first delivery: both sides empty, with no code run yet.
const emptySides = (): SideRun[] =>
	handlerNames.map((name) => ({
		name,
		file: files[name],
		shown: 'yours' as const,
		notWritten: null,
		steps: [],
		broke: null,
		disagreement: null
	}));
