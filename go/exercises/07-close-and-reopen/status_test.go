package closeandreopen

import (
	"reflect"
	"strings"
	"testing"

	"workbook/core"
	"workbook/status"
)

// rules are the learner's two, as the harness's Handler applies them: to a staged store, committed at once.
var rules = status.Rules{SetStatus: SetStatus, AddComment: AddComment}

// written stops a test at the first of the two that is still a stub, once, before it plays anything.
// Any other panic is left to the schedules that meet it, which say at which delivery.
func written(t *testing.T) {
	t.Helper()
	core.Written(t, func() {
		defer func() {
			if p := recover(); p != nil {
				if _, stub := p.(core.NotWrittenYet); stub {
					panic(p)
				}
			}
		}()
		h := status.NewHandler(rules, []status.StartTicket{{ID: 1, Status: "open", Version: 1}})
		h.Handle(closeOn("chg-1", 1), core.NoFault)
		h.Handle(status.Change{Kind: "add-comment", ChangeID: "chg-2", TicketID: 1, Text: "Is there any news?"}, core.NoFault)
	})
}

// TestStatusSchedules plays every schedules/status file with your rules, held to the versioned column,
// as exercises/07-close-and-reopen/status.test.ts does in TypeScript.
func TestStatusSchedules(t *testing.T) {
	written(t)
	status.PlaySchedules(t, status.VersionedColumn, rules)
}

// TestMadeUpSchedules plays made-up schedules (closes, reopens and comments to three tickets, some decided
// on an older version, sent again or late, or whose worker dies) held to the contract; STATUS_SEED replays one.
func TestMadeUpSchedules(t *testing.T) {
	written(t)
	status.ExploreMadeUp(t, rules)
}

// TestSetStatus pins the rules one change at a time, on ticket #1 open at version 1: a status change keeps
// no receipt, and a stale one writes nothing.
func TestSetStatus(t *testing.T) {
	written(t)
	tests := []struct {
		name    string
		changes []status.Change
		want    status.Answer
	}{
		{"decided on the current version: applied", []status.Change{closeOn("chg-1", 1)}, status.Answer{Kind: "set", Status: "closed", Version: 2}},
		{"the same change five times: one answer, not stale", repeat(closeOn("chg-1", 1), 5), status.Answer{Kind: "set", Status: "closed", Version: 2}},
		{"another change decided on an older version: stale", []status.Change{closeOn("chg-1", 1), reopenOn("chg-2", 1)}, status.Answer{Kind: "stale", Version: 2}},
		{"a status it already has, on the current version: nothing moves", []status.Change{closeOn("chg-1", 1), closeOn("chg-2", 2)}, status.Answer{Kind: "set", Status: "closed", Version: 2}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			h := status.NewHandler(rules, []status.StartTicket{{ID: 1, Status: "open", Version: 1}})
			var got status.Answer
			var before status.Store
			for _, c := range test.changes {
				before = h.Snapshot()
				got = send(t, h, c)
			}
			if got != test.want {
				t.Errorf("ticket #1 open at version 1, sent %s: the last answer %s, want %s", said(test.changes), got, test.want)
			}
			if receipts := h.Snapshot().Receipts; len(receipts) != 0 {
				t.Errorf("sent %s: a status change keeps no receipt, but the store has %v", said(test.changes), receipts)
			}
			if after := h.Snapshot(); test.want.Kind == "stale" && !reflect.DeepEqual(before, after) {
				t.Errorf("sent %s: the stale change wrote something:\nbefore: %+v\nafter:  %+v", said(test.changes), before, after)
			}
		})
	}
}

// send hands one change to the handler; a panic fails the test, saying which change met it.
func send(t *testing.T, h *status.Handler, change status.Change) status.Answer {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("ticket #1 open at version 1, sent %s: your code panicked: %v", change, p)
		}
	}()
	return h.Handle(change, core.NoFault)
}

func closeOn(changeID string, version int) status.Change {
	return status.Change{Kind: "set-status", ChangeID: changeID, TicketID: 1, Status: "closed", DecidedOn: version}
}

func reopenOn(changeID string, version int) status.Change {
	change := closeOn(changeID, version)
	change.Status = "open"
	return change
}

func repeat(change status.Change, times int) []status.Change {
	changes := make([]status.Change, times)
	for i := range changes {
		changes[i] = change
	}
	return changes
}

// said is the changes in the stories' words, in the order they were sent.
func said(changes []status.Change) string {
	words := make([]string, len(changes))
	for i, change := range changes {
		words[i] = change.String()
	}
	return strings.Join(words, "; then ")
}
