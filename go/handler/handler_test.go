package handler

import (
	"encoding/json"
	"reflect"
	"testing"

	"workbook/schedules"
)

var evt42 = Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}

func loadSchedules(t *testing.T) []Schedule {
	t.Helper()
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestHandlersPlayTheSchedules plays every schedules/handler file against both handlers, each held to
// its own column of expectations. A failure names the schedule, the delivery and the difference.
func TestHandlersPlayTheSchedules(t *testing.T) {
	handlers := []struct {
		column string
		make   func() Handler
	}{
		{CreateEveryTime, func() Handler { return &TicketHandler{} }},
		{ReceiptInCommit, func() Handler { return &ReceiptHandler{} }},
	}
	all := loadSchedules(t)
	for _, handler := range handlers {
		t.Run(handler.column, func(t *testing.T) {
			for _, s := range all {
				t.Run(s.Name, func(t *testing.T) {
					schedules.Playing(t, s, handler.column)
					if problem := Judge(s, handler.column, Play(s, handler.make())); problem != "" {
						t.Error(problem)
					}
				})
			}
		})
	}
}

func TestSameEvent(t *testing.T) {
	tests := []struct {
		name  string
		a, b  Webhook
		equal bool
	}{
		{"the same delivery again", evt42, evt42, true},
		{"the same event with another subject (still the same event)", evt42, with(evt42, func(w *Webhook) { w.Subject = "Cannot export report" }), true},
		{"another event id", evt42, with(evt42, func(w *Webhook) { w.EventID = "evt-43" }), false},
		{"another tenant", evt42, with(evt42, func(w *Webhook) { w.Tenant = "globex" }), false},
		{"another source", evt42, with(evt42, func(w *Webhook) { w.Source = "billing" }), false},
		{
			"separators inside the fields: compare fields, don't join them",
			Webhook{Tenant: "a:b", Source: "c", EventID: "evt-1"},
			Webhook{Tenant: "a", Source: "b:c", EventID: "evt-1"},
			false,
		},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			if got := SameEvent(test.a, test.b); got != test.equal {
				t.Errorf("SameEvent(%+v, %+v) = %v, want %v", test.a, test.b, got, test.equal)
			}
		})
	}
}

func TestReplay(t *testing.T) {
	receipt := Receipt{Webhook: evt42, TicketID: 7}
	tests := []struct {
		name  string
		event Webhook
		want  Outcome
	}{
		{"the same request again gets the original ticket", evt42, Outcome{"replayed", 7}},
		{"the same key with another subject is a conflict", with(evt42, func(w *Webhook) { w.Subject = "Cannot export report" }), Outcome{"conflict", 0}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			if got := Replay(receipt, test.event); got != test.want {
				t.Errorf("Replay(receipt #7, %q) = %+v, want %+v", test.event.Subject, got, test.want)
			}
		})
	}
}

// TestSnapshotIsACopy: whoever holds a snapshot can't change the store through it. What the store held
// is written down as JSON before the scribbling, so a snapshot that shares its arrays can't change
// "before" too.
func TestSnapshotIsACopy(t *testing.T) {
	for name, h := range map[string]Handler{"TicketHandler": &TicketHandler{}, "ReceiptHandler": &ReceiptHandler{}} {
		t.Run(name, func(t *testing.T) {
			if before, after, changed := scribbleOnSnapshot(h); changed {
				t.Errorf("changing a snapshot changed the store:\nbefore: %s\nafter:  %s", before, after)
			}
		})
	}
	t.Run("a live snapshot is caught", func(t *testing.T) {
		if _, _, changed := scribbleOnSnapshot(&liveSnapshot{}); !changed {
			t.Error("a handler whose Snapshot hands out its own arrays passed the check")
		}
	})
}

// scribbleOnSnapshot handles evt-42, changes what Snapshot returned, and says whether the store changed.
func scribbleOnSnapshot(h Handler) (before, after string, changed bool) {
	h.Handle(evt42, NoFault)
	said := func(db Database) string {
		data, _ := json.Marshal(db)
		return string(data)
	}
	before = said(h.Snapshot())
	copied := h.Snapshot()
	if len(copied.Tickets) > 0 {
		copied.Tickets[0].Subject = "Changed through a snapshot"
	}
	copied.Tickets = append(copied.Tickets, Ticket{ID: 99, Tenant: "mallory"})
	if len(copied.Receipts) > 0 {
		copied.Receipts[0].TicketID = 99
	}
	after = said(h.Snapshot())
	return before, after, before != after
}

// liveSnapshot is the mistake TestSnapshotIsACopy must catch: a receipt handler whose Snapshot is the
// store itself.
type liveSnapshot struct{ ReceiptHandler }

func (h *liveSnapshot) Snapshot() Database { return h.db }

// A repeat whose worker dies after the commit must not save anything new either.
func TestReplayThatCrashesAfterCommitSavesNothing(t *testing.T) {
	h := &ReceiptHandler{}
	h.Handle(evt42, NoFault)
	before := h.Snapshot()
	if got := h.Handle(evt42, AfterCommit); got != Crashed {
		t.Errorf("Handle(evt-42 again, after-commit) = %+v, want %+v", got, Crashed)
	}
	if after := h.Snapshot(); !reflect.DeepEqual(before, after) {
		t.Errorf("a repeat committed something:\nbefore: %+v\nafter:  %+v", before, after)
	}
}

func with(w Webhook, change func(*Webhook)) Webhook {
	change(&w)
	return w
}
