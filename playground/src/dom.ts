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
export function stepKeys(section: HTMLElement, keys: { back: () => void; next: () => void; end?: () => void }) {
	section.addEventListener('keydown', (event) => {
		const target = event.target as HTMLElement;
		if (target.closest('input[type="text"], input[type="number"], textarea, select')) return;
		const act = { ArrowLeft: keys.back, ArrowRight: keys.next, End: keys.end }[event.key];
		if (!act) return;
		event.preventDefault();
		act();
	});
}
