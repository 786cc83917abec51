package race

import (
	"strings"
	"testing"

	"workbook/database"
	"workbook/handler"
	"workbook/race/atomic"
	"workbook/scheduler"
)

// separately is 03's given HandleSeparately: the check and the two saves, each committing on its own.
func separately(db database.Connection, event handler.Webhook) (handler.Outcome, error) {
	seen, err := db.FindReceipt(event)
	if err != nil || seen != nil {
		if seen != nil {
			return handler.Replay(*seen, event), nil
		}
		return handler.Outcome{}, err
	}
	id, err := db.SaveTicket(event.Tenant, event.Subject)
	if err != nil {
		return handler.Outcome{}, err
	}
	if err := db.SaveReceipt(handler.Receipt{Event: event, TicketID: id}); err != nil {
		return handler.Outcome{}, err
	}
	return handler.Outcome{Kind: "created", TicketID: id}, nil
}

func atomically(db database.Connection, event handler.Webhook) (handler.Outcome, error) {
	return atomic.HandleAtomically(db, event, nil)
}

// TestTheWalksCountsAreKept pins what the walks of evt-42 explore, as the code before them explored it: the
// runs, how many were complete, pruned and wrong, and the order of the first wrong one. A cheaper state key
// or scheduler must walk the very same tree, so a learner's story (its "N of M interleavings") stays the same.
func TestTheWalksCountsAreKept(t *testing.T) {
	tests := []struct {
		name                           string
		handle                         Handle
		workers                        int
		noPrune                        bool
		runs, complete, pruned, failed int
		first                          string
	}{
		{"two workers, atomic, every order", atomically, 2, true, 50, 50, 0, 0, ""},
		{"three workers, atomic, pruned", atomically, 3, false, 542, 66, 476, 0, ""},
		{"two workers, separate, every order", separately, 2, true, 20, 20, 0, 18, "A A B A B B"},
		{"three workers, separate, pruned", separately, 3, false, 131, 66, 65, 60, "A A B A B B C"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			explored, err := scheduler.ExploreAll(sameEvent(test.handle, test.workers), judgeSameEvent, scheduler.ExploreOptions{NoPrune: test.noPrune})
			if err != nil {
				t.Fatal(err)
			}
			first := ""
			if len(explored.Failures) > 0 {
				first = strings.Join(explored.Failures[0].Run.Steps, " ")
			}
			got := [4]int{explored.Runs, explored.Complete, explored.Pruned, explored.Failed}
			if want := [4]int{test.runs, test.complete, test.pruned, test.failed}; got != want || first != test.first {
				t.Errorf("runs, complete, pruned, wrong = %v, first wrong order %q; want %v, %q", got, first, want, test.first)
			}
		})
	}
}
