package emailoutbox

import (
	"testing"

	"workbook/outbox"
)

// TestSendInside passes as shipped, as send-inside.test.ts does: the given anti-pattern, and the damage it does.
func TestSendInside(t *testing.T) {
	inside := outbox.Inside(SendInside)
	outbox.PlaySchedules(t, inside)
	t.Run("while the provider is down, no ticket can be made at all: the delivery fails and rolls back", func(t *testing.T) {
		outbox.ProviderDownFailsTheDelivery(t, inside)
	})
	t.Run("the property finds an email about a ticket that does not exist", func(t *testing.T) {
		outbox.PropertyBreaks(t, inside)
	})
	t.Run("some crash points break it", func(t *testing.T) { outbox.CrashPointsBreak(t, inside) })
}
