package status

import (
	"strings"
	"testing"

	"workbook/handler"
	"workbook/schedules"
)

// TestSetStatus pins the rules one change at a time, on ticket #1 open at version 1.
func TestSetStatus(t *testing.T) {
	closeOn := func(id string, version int) Change {
		return Change{Kind: "set-status", ChangeID: id, TicketID: 1, Status: "closed", DecidedOn: version}
	}
	tests := []struct {
		name    string
		changes []Change
		want    Answer
	}{
		{"decided on the current version: applied", []Change{closeOn("chg-1", 1)}, Answer{Kind: "set", Status: "closed", Version: 2}},
		{"the same change again: the same answer, not stale", []Change{closeOn("chg-1", 1), closeOn("chg-1", 1)}, Answer{Kind: "set", Status: "closed", Version: 2}},
		{"another change decided on an older version: stale", []Change{closeOn("chg-1", 1), closeOn("chg-2", 1)}, Answer{Kind: "stale", Version: 2}},
		{"a status it already has, on the current version: nothing moves", []Change{closeOn("chg-1", 1), closeOn("chg-2", 2)}, Answer{Kind: "set", Status: "closed", Version: 2}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			h := NewHandler(Versioned, []StartTicket{{ID: 1, Status: "open", Version: 1}})
			var got Answer
			for _, c := range test.changes {
				got = h.Handle(c, handler.NoFault)
			}
			if got != test.want {
				t.Errorf("last answer %s, want %s", saidAnswer(got), saidAnswer(test.want))
			}
			if receipts := h.Snapshot().Receipts; len(receipts) != 0 {
				t.Errorf("a status change keeps no receipt, but the store has %v", receipts)
			}
		})
	}
}

func TestLoadingNamesTheFileAndField(t *testing.T) {
	tests := []struct {
		name   string
		change func(s map[string]any)
		want   string
	}{
		{"a change that isn't one", func(s map[string]any) { schedules.At(s, "deliveries", 1, "change")["kind"] = "merge" },
			`deliveries[1].change.kind: must be one of "set-status", "add-comment"`},
		{"a field another kind of change takes", func(s map[string]any) { schedules.At(s, "deliveries", 0, "change")["text"] = "hi" },
			"deliveries[0].change.text: not a field here (misspelled?)"},
		{"a status change without the version it was decided on", func(s map[string]any) {
			delete(schedules.At(s, "deliveries", 2, "change"), "decidedOn")
		}, "deliveries[2].change.decidedOn: missing"},
		{"a change about a ticket the schedule does not start with", func(s map[string]any) {
			schedules.At(s, "deliveries", 2, "change")["ticketId"] = 7
		}, "deliveries[2].change.ticketId: no ticket #7 in start"},
		{"an answer where the worker dies", func(s map[string]any) {
			schedules.At(s, "deliveries", 0)["fault"] = "after-commit"
		}, "expect.as-it-arrives.answers[0]: the worker dies (after-commit): crashed"},
		{"a misspelled field in an answer", func(s map[string]any) {
			answer := schedules.At(s, "expect", "versioned", "answers", 2)
			answer["versoin"] = answer["version"]
			delete(answer, "version")
		}, "expect.versioned.answers[2].version: missing; expect.versioned.answers[2].versoin: not a field here (misspelled?)"},
		{"a status that isn't one", func(s map[string]any) { schedules.At(s, "start", 0)["status"] = "pending" },
			`start[0].status: must be one of "open", "closed"`},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			message := schedules.LoadChanged[Schedule](t, "status", "late-close-after-reopen", "late-close-after-reopen", test.change)
			if !strings.Contains(message, "schedules/status/late-close-after-reopen.json: ") || !strings.Contains(message, test.want) {
				t.Errorf("the error\n\t%s\ndoes not name the file and say\n\t%s", message, test.want)
			}
		})
	}
}
