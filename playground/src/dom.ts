// A small helper for building the page: h('li', { class: 'ticket' }, '#1 ', subject).
type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	attributes: Attributes = {},
	...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
	const element = document.createElement(tag);
	for (const [name, value] of Object.entries(attributes)) {
		if (value === undefined || value === false) continue;
		if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
		else element.setAttribute(name, value === true ? '' : String(value));
	}
	for (const child of children.flat()) {
		if (child === null || child === undefined || child === false) continue;
		element.append(child);
	}
	return element;
}

export function replace(parent: Element, ...children: (Child | Child[])[]): void {
	parent.replaceChildren(...children.flat().filter((c): c is Node | string => !!c));
}

// ← and → (and Home, End) step a scene while focus is anywhere inside it, unless the learner is typing.
export function stepKeys(
	section: HTMLElement,
	keys: { back: () => void; next: () => void; end?: () => void }
) {
	section.addEventListener('keydown', (event) => {
		const target = event.target as HTMLElement;
		// Arrows mean something else in a field, a radio group or a list.
		if (target.closest('input, textarea, select')) return;
		const act = { ArrowLeft: keys.back, ArrowRight: keys.next, End: keys.end }[event.key];
		if (!act) return;
		event.preventDefault();
		act();
	});
}

// Draws a part of the page again without losing the keyboard's place: focus goes back to the same step button,
// or, when that one is now disabled, to another, or to the part itself.
export function redraw(part: HTMLElement, draw: () => void): void {
	const focused = document.activeElement;
	const step = focused && part.contains(focused) ? focused.getAttribute('data-step') : null;
	draw();
	if (step === null) return;
	const again =
		part.querySelector<HTMLElement>(`[data-step="${step}"]:not([disabled])`) ??
		part.querySelector<HTMLElement>('[data-step]:not([disabled])') ??
		part;
	again.focus({ preventScroll: true });
}
