package sameevent

import (
	"reflect"
	"testing"

	"workbook/core"
	"workbook/given"
	"workbook/handler"
)

var evt42 = core.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}

// TestSameEvent: tenant, source and event id name a delivery, each compared as sent.
func TestSameEvent(t *testing.T) {
	core.Written(t, func() { SameEvent(evt42, evt42) })
	tests := []struct {
		name  string
		a, b  core.Webhook
		equal bool
	}{
		{"the same delivery again", evt42, evt42, true},
		{"the same event with another subject (still the same event)", evt42, with(evt42, func(w *core.Webhook) { w.Subject = "Cannot export report" }), true},
		{"another event id", evt42, with(evt42, func(w *core.Webhook) { w.EventID = "evt-43" }), false},
		{"another tenant", evt42, with(evt42, func(w *core.Webhook) { w.Tenant = "globex" }), false},
		{"another source", evt42, with(evt42, func(w *core.Webhook) { w.Source = "billing" }), false},
		{"the event id in other letters (EVT-42)", evt42, with(evt42, func(w *core.Webhook) { w.EventID = "EVT-42" }), false},
		{"the source in other letters (Helpdesk)", evt42, with(evt42, func(w *core.Webhook) { w.Source = "Helpdesk" }), false},
		{"the tenant in other letters (ACME)", evt42, with(evt42, func(w *core.Webhook) { w.Tenant = "ACME" }), false},
		{
			`tenant "a:b" + source "c" is not tenant "a" + source "b:c": compare fields, don't join them`,
			core.Webhook{Tenant: "a:b", Source: "c", EventID: "evt-1"},
			core.Webhook{Tenant: "a", Source: "b:c", EventID: "evt-1"},
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
	t.Run("property: SameEvent is true exactly when tenant, source and event id are each equal", func(t *testing.T) {
		handler.SameEventProperty(t, SameEvent)
	})
}

// TestReplay: what a repeat gets back.
func TestReplay(t *testing.T) {
	receipt := core.Receipt{Event: evt42, TicketID: 7}
	core.Written(t, func() { Replay(receipt, evt42) })
	tests := []struct {
		name  string
		event core.Webhook
		want  core.Outcome
	}{
		{"the same request again gets the original ticket", evt42, core.Outcome{Kind: "replayed", TicketID: 7}},
		{"the same key with another subject is a conflict", with(evt42, func(w *core.Webhook) { w.Subject = "Cannot export report" }), core.Outcome{Kind: "conflict"}},
		{"the same key with its subject in other letters is a conflict too", with(evt42, func(w *core.Webhook) { w.Subject = "cannot sign in" }), core.Outcome{Kind: "conflict"}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			if got := Replay(receipt, test.event); got != test.want {
				t.Errorf("Replay(receipt #7 for %q, %q) = %+v, want %+v", receipt.Event.Subject, test.event.Subject, got, test.want)
			}
		})
	}
}

// TestReceiptHandler: the schedules as receipt-in-commit, a snapshot that is a copy, and a repeat that
// dies after its commit.
func TestReceiptHandler(t *testing.T) {
	core.Written(t, func() {
		h := &ReceiptHandler{}
		h.Handle(evt42, core.NoFault)
		h.Handle(evt42, core.NoFault)
		h.Snapshot()
	})
	t.Run("the schedules, as receipt-in-commit", func(t *testing.T) {
		handler.PlaySchedules(t, handler.ReceiptInCommit, func() handler.Handler { return &ReceiptHandler{} })
	})
	t.Run("Snapshot hands out a copy: changing it leaves the store alone", func(t *testing.T) {
		handler.SnapshotIsACopy(t, &ReceiptHandler{})
	})
	t.Run("a repeat whose worker dies after the commit saves nothing new", func(t *testing.T) {
		h := &ReceiptHandler{}
		h.Handle(evt42, core.NoFault)
		before := h.Snapshot()
		if got := h.Handle(evt42, core.AfterCommit); got != core.Crashed {
			t.Errorf("Handle(evt-42 again, after-commit) = %+v, want %+v", got, core.Crashed)
		}
		if after := h.Snapshot(); !reflect.DeepEqual(before, after) {
			t.Errorf("a repeat committed something:\nbefore: %+v\nafter:  %+v", before, after)
		}
	})
}

func with(w core.Webhook, change func(*core.Webhook)) core.Webhook {
	change(&w)
	return w
}

// TestWritesItsOwn: the workbook hands exercise 02's answers on from exercise 03 (go/handler/replay.go); this
// exercise's file may not import them, or the tests above would pass on work it did not do.
func TestWritesItsOwn(t *testing.T) {
	given.Check(t, "02")
}
