package handler

import "testing"

// TestSnapshotIsACopy: ScribbleOnSnapshot, the check of exercises 01 and 02, passes a handler whose
// snapshot is a copy and catches one whose snapshot is its store.
func TestSnapshotIsACopy(t *testing.T) {
	t.Run("a copying snapshot passes", func(t *testing.T) {
		if before, after, changed := ScribbleOnSnapshot(&keyedReceipts{key: fieldByField}); changed {
			t.Errorf("changing a snapshot changed the store:\nbefore: %s\nafter:  %s", before, after)
		}
	})
	t.Run("a live snapshot is caught", func(t *testing.T) {
		if _, _, changed := ScribbleOnSnapshot(&liveSnapshot{}); !changed {
			t.Error("a handler whose Snapshot hands out its own arrays passed the check")
		}
	})
}

// liveSnapshot is the mistake TestSnapshotIsACopy must catch: a receipt handler whose Snapshot is the
// store itself.
type liveSnapshot struct{ db Database }

func (h *liveSnapshot) Handle(event Webhook, _ Fault) Outcome {
	h.db.Tickets = append(h.db.Tickets, Ticket{ID: len(h.db.Tickets) + 1, Tenant: event.Tenant, Subject: event.Subject})
	return Outcome{"created", len(h.db.Tickets)}
}

func (h *liveSnapshot) Snapshot() Database { return h.db }
