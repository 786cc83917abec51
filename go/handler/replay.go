package handler

// The reference rules of exercise 02, which the later rooms and their solutions build on, as
// harness/core/identity.ts and replay.ts are TypeScript's. The learner writes their own in
// go/exercises/02-same-event.

// SameEvent is a delivery's identity: the same event, from the same source, for the same tenant.
// The fields are compared one by one, never joined into one string, so "a:b"+"c" is not "a"+"b:c".
func SameEvent(a, b Webhook) bool {
	return a.Tenant == b.Tenant && a.Source == b.Source && a.EventID == b.EventID
}

// Replay hands back the original ticket, unless the same key now carries a different request.
func Replay(receipt Receipt, event Webhook) Outcome {
	if receipt.Event.Subject != event.Subject {
		return Outcome{"conflict", 0}
	}
	return Outcome{"replayed", receipt.TicketID}
}
