// What a learner's report may show of the code's answer on a failing held-out case: one input at most.
//
//   const shown = shownAnswer(answer, input, expected);   // the answer, as the judge's message will show it
//   shownErrorName('TypeError')                           // 'TypeError'; a name of its own is not shown
//
// A run is handed every input of its checks (job.json, and each call's arguments), so code that means to can
// write the other held-out inputs into its answers, and a judge's message quotes the answer. So the message
// about a held-out case is made from the answer as shown here: every value (string, number, key) that is the
// case's own (in its input or in the reference's answer on it) or public (in the given checks' inputs and
// answers: the outcomes' kinds, the shipped schedules' words) is shown as it is; of the code's own, a few small
// whole numbers (`ownNumbers`: a wrong status or ticket number), and every other value is written
// ⟨yours N, not shown⟩ (two equal values get the same N, so the message still says which answers were alike);
// an array or object longer than the case's longest (or `maxValues`) is cut there. The verdict is always made on the
// answer as it came; this shapes only its words.
const ownNumbers = 4;
const maxValues = 24;
const maxDepth = 12;

type Budget = { numbers: number; widest: number; hidden: Map<unknown, string> };

type Known = { values: Set<unknown>; widest: number };

// Every string, number and key of a value, and its longest array or object: what an answer may show of this case.
function valuesOf(value: unknown, into: Known, depth = 0): Known {
	if (typeof value === 'string' || typeof value === 'number') into.values.add(value);
	else if (value && typeof value === 'object' && depth < maxDepth) {
		const entries = Object.entries(value);
		into.widest = Math.max(into.widest, entries.length);
		for (const [key, inner] of entries) {
			if (!Array.isArray(value)) into.values.add(key);
			valuesOf(inner, into, depth + 1);
		}
	}
	return into;
}

function own(value: string | number, known: Set<unknown>, budget: Budget): string | number {
	if (known.has(value)) return value;
	if (
		typeof value === 'number' &&
		Number.isInteger(value) &&
		Math.abs(value) < 10_000 &&
		budget.numbers > 0
	) {
		budget.numbers -= 1;
		return value;
	}
	const name = budget.hidden.get(value) ?? `⟨yours ${budget.hidden.size + 1}, not shown⟩`;
	budget.hidden.set(value, name);
	return name;
}

function shown(value: unknown, known: Set<unknown>, budget: Budget, depth: number): unknown {
	if (typeof value === 'string' || typeof value === 'number') return own(value, known, budget);
	if (!value || typeof value !== 'object') return value;
	if (depth >= maxDepth) return '⟨deeper, not shown⟩';
	const entries = Object.entries(value);
	const kept: [string, unknown][] = [];
	for (const [key, inner] of entries.slice(0, budget.widest)) {
		const foreign = !known.has(key) && !Array.isArray(value);
		kept.push([foreign ? String(own(key, known, budget)) : key, shown(inner, known, budget, depth + 1)]);
	}
	const cut = entries.length - kept.length;
	if (Array.isArray(value))
		return cut
			? [...kept.map(([, inner]) => inner), `⟨${cut} more, not shown⟩`]
			: kept.map(([, inner]) => inner);
	return Object.fromEntries(cut ? [...kept, ['⟨more⟩', `⟨${cut} more, not shown⟩`]] : kept);
}

// publicValues: what the given checks hand the code and expect of it (publicValuesOf), shown wherever it appears.
export function shownAnswer(
	answer: unknown,
	input: unknown,
	expected: unknown,
	publicValues: ReadonlySet<unknown> = new Set()
): unknown {
	const known = valuesOf(expected, valuesOf(input, { values: new Set(publicValues), widest: maxValues }));
	const budget = { numbers: ownNumbers, widest: known.widest, hidden: new Map() };
	return shown(answer, known.values, budget, 0);
}

// Every value of the given (public) checks' inputs and answers.
export function publicValuesOf(given: { cases: unknown[]; expected: unknown[] }[]): Set<unknown> {
	const known = { values: new Set<unknown>(), widest: 0 };
	for (const check of given) valuesOf(check.expected, valuesOf(check.cases, known));
	return known.values;
}

// The name of what the code threw on a held-out case: JavaScript's own errors and the harness's by name; a
// name of the code's own could carry anything, so it is not shown.
const knownNames =
	/^(Error|TypeError|RangeError|ReferenceError|SyntaxError|EvalError|URIError|AggregateError|AbortError|NotWrittenYet|ScheduleMismatch|NotTheContract|UniqueViolation|Crashed|TimeoutError)$/;
export const shownErrorName = (name: string) => (knownNames.test(name) ? name : 'an error of its own');
