package emailoutbox

import (
	"fmt"
	"testing"

	"workbook/core"
	"workbook/outbox"
	"workbook/race"
)

// TestEmailKey: the email is named by its ticket, not by the delivery, as exercises/05-email-outbox's
// outbox.test.ts holds emailKey.
func TestEmailKey(t *testing.T) {
	core.Written(t, func() { EmailKey("acme", 1, "ticket-confirmation") })
	if got := EmailKey("acme", 1, "ticket-confirmation"); got != "ticket-confirmation/acme/1" {
		t.Error(core.CaseStory("ticket 1 of acme, confirmed: ticket-confirmation/acme/1", `EmailKey("acme", 1, "ticket-confirmation")`,
			"ticket-confirmation/acme/1", got, "the key is the kind of email, the tenant and the ticket id, in that order"))
	}
	tests := []struct {
		name    string
		a, b    [2]any // tenant, ticket id
		sameKey bool
	}{
		{"the same ticket asked twice: the same key, so the provider can recognise the repeat", [2]any{"acme", 7}, [2]any{"acme", 7}, true},
		{"the same ticket number at two tenants: two keys", [2]any{"acme", 1}, [2]any{"globex", 1}, false},
		{"two tickets of one tenant: two keys", [2]any{"acme", 1}, [2]any{"acme", 2}, false},
		{`a tenant with a "/" in its name still gets a key of its own: a/1 #2 is not a #12`, [2]any{"a/1", 2}, [2]any{"a", 12}, false},
		{`a tenant with a "/" in its name still gets a key of its own: a/12 #3 is not a/1/2 #3`, [2]any{"a/12", 3}, [2]any{"a/1/2", 3}, false},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			a := EmailKey(test.a[0].(string), test.a[1].(int), "ticket-confirmation")
			b := EmailKey(test.b[0].(string), test.b[1].(int), "ticket-confirmation")
			if (a == b) != test.sameKey {
				said := map[bool]string{true: "one key for both: " + a, false: "two keys: " + a + " and " + b}
				call := fmt.Sprintf("EmailKey(%q, %d) and EmailKey(%q, %d)", test.a[0], test.a[1], test.b[0], test.b[1])
				t.Error(core.CaseStory(test.name, call, map[bool]string{true: "one key", false: "two keys"}[test.sameKey], said[a == b], ""))
			}
		})
	}
}

// TestOutbox is exercise 05's test of HandleWithOutbox and Relay, as outbox.test.ts is TypeScript's.
func TestOutbox(t *testing.T) {
	core.Written(t, func() { EmailKey("acme", 1, "ticket-confirmation") })
	send := outbox.OutboxRelay(HandleWithOutbox, Relay)
	outbox.PlaySchedules(t, send)
	t.Run("the ticket does not wait for the mail provider: while it is down, the ticket and its row still commit", func(t *testing.T) {
		outbox.TicketDoesNotWaitForTheProvider(t, send)
	})
	t.Run("two workers deliver evt-42 at once: exercise 03's fix still holds, so one creates #1 and the other gets it back", func(t *testing.T) {
		race.OneTicketInEveryInterleaving(t, HandleWithOutbox, 2)
	})
	t.Run("property: deliveries, relays and outages overlapping at random, crashing anywhere, then one clean relay run: every committed ticket has exactly one email, and no email is about a ticket that does not exist", func(t *testing.T) {
		outbox.Property(t, send)
	})
	t.Run("every crash point of the handler and of the relay: every committed ticket has exactly one email", func(t *testing.T) {
		outbox.EveryCrashPoint(t, send)
	})
	t.Run("a provider that fails one call at a time (down, a reused key refused, a bug), every way over three rows: each row sent once, marked only when taken, a refusal skipped, a bug thrown", func(t *testing.T) {
		outbox.RelayFaults(t, Relay)
	})
}
