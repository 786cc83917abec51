// A value as JSON, its fields in one order whatever order they were written in, so two bodies compare by what
// they say: canonical({ b: 1, a: 2 }) === canonical({ a: 2, b: 1 }) === '{"a":2,"b":1}'. Fields holding
// undefined are left out, as JSON.stringify leaves them out. The key store's fake endpoint and 06's endpoint
// fingerprint bodies with it, and their judges compare what was sent with it.
export function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const fields = Object.entries(value as Record<string, unknown>)
			.filter(([, v]) => v !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
