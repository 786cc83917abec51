// Exercise 02's focused tests told as its schedules are (harness/core/cases.ts): sameEvent's answer said
// with what it means, replay's as a schedule says an outcome (go/handler/cases.go says the same).
//
//   handlerCase('another tenant: not the same', (check) => {
//   	check('sameEvent(acme/helpdesk/evt-42, globex/helpdesk/evt-42)', sameEvent(a, b), false, '…');
//   });
import { focusedCase, type Check } from '../core/cases.ts';
import { canonical } from '../core/canonical.ts';
import type { Outcome } from '../core/model.ts';
import { saidOutcome } from '../core/words.ts';

export function said(value: unknown): string {
	if (value === true) return 'true (the same event)';
	if (value === false) return 'false (two events)';
	if (value !== null && typeof value === 'object' && 'kind' in value) return saidOutcome(value as Outcome);
	return canonical(value);
}

export function handlerCase(name: string, body: (check: Check) => void): void {
	focusedCase(name, said, body);
}
