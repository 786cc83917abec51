// Exercise 04's focused tests told as its journeys are (harness/core/cases.ts): a submission said as its
// key and body, a form state as the form shows it (go/client/cases.go says the same).
//
//   contractCase('begin() again continues it', (check) => {
//   	check('begin(edited) after begin(signIn)', store.begin(edited), { key: 'key-1', body: signIn }, 'a retry …');
//   });
import { focusedCase, type Check } from '../core/cases.ts';
import { canonical } from '../core/canonical.ts';
import { saidRequest, saidState } from './words.ts';

export function said(value: unknown): string {
	if (value === null || value === undefined) return 'nothing';
	if (typeof value === 'string') return value;
	if (typeof value !== 'object') return String(value);
	if ('key' in value && 'body' in value)
		return value.key === ''
			? `(an empty key) ${saidRequest('', value.body).trim()}`
			: saidRequest(value.key, value.body);
	if ('kind' in value) return saidState(value);
	return canonical(value);
}

export function contractCase(name: string, body: (check: Check) => void): void {
	focusedCase(name, said, body);
}
