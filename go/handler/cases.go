package handler

import (
	"reflect"
	"testing"
)

// Exercise 02's tests of SameEvent, Replay and the receipt handler, case by case: the tables its test file
// calls, kept here so that they are compiled once with the harness and not again at every edit of the
// learner's file (as SameEventProperty is).
//
//	handler.SameEventCases(t, SameEvent)        the identity: tenant, source and event id, each as sent
//	handler.ReplayCases(t, Replay)              what a repeat gets back: the ticket, or a conflict
//	handler.RepeatAfterCommitSavesNothing(t, h) a repeat whose worker dies after its commit

// evt42 is the lesson's delivery: acme's helpdesk event evt-42, "Cannot sign in".
var evt42 = Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}

func with(w Webhook, change func(*Webhook)) Webhook {
	change(&w)
	return w
}

// SameEventCases: tenant, source and event id name a delivery, each compared as sent.
func SameEventCases(t *testing.T, SameEvent func(a, b Webhook) bool) {
	t.Helper()
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
		{"the event id in other letters (EVT-42)", evt42, with(evt42, func(w *Webhook) { w.EventID = "EVT-42" }), false},
		{"the source in other letters (Helpdesk)", evt42, with(evt42, func(w *Webhook) { w.Source = "Helpdesk" }), false},
		{"the tenant in other letters (ACME)", evt42, with(evt42, func(w *Webhook) { w.Tenant = "ACME" }), false},
		{
			`tenant "a:b" + source "c" is not tenant "a" + source "b:c": compare fields, don't join them`,
			Webhook{Tenant: "a:b", Source: "c", EventID: "evt-1"},
			Webhook{Tenant: "a", Source: "b:c", EventID: "evt-1"},
			false,
		},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			t.Helper()
			if got := SameEvent(test.a, test.b); got != test.equal {
				t.Errorf("SameEvent(%+v, %+v) = %v, want %v", test.a, test.b, got, test.equal)
			}
		})
	}
}

// ReplayCases: what a repeat of evt-42 gets back from its receipt, #7.
func ReplayCases(t *testing.T, Replay func(receipt Receipt, event Webhook) Outcome) {
	t.Helper()
	receipt := Receipt{Event: evt42, TicketID: 7}
	tests := []struct {
		name  string
		event Webhook
		want  Outcome
	}{
		{"the same request again gets the original ticket", evt42, Outcome{Kind: "replayed", TicketID: 7}},
		{"the same key with another subject is a conflict", with(evt42, func(w *Webhook) { w.Subject = "Cannot export report" }), Outcome{Kind: "conflict"}},
		{"the same key with its subject in other letters is a conflict too", with(evt42, func(w *Webhook) { w.Subject = "cannot sign in" }), Outcome{Kind: "conflict"}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			t.Helper()
			if got := Replay(receipt, test.event); got != test.want {
				t.Errorf("Replay(receipt #7 for %q, %q) = %+v, want %+v", receipt.Event.Subject, test.event.Subject, got, test.want)
			}
		})
	}
}

// RepeatAfterCommitSavesNothing: evt-42 handled, then again by a worker that dies after its commit; the
// repeat answers nothing and commits nothing new.
func RepeatAfterCommitSavesNothing(t *testing.T, h Handler) {
	t.Helper()
	h.Handle(evt42, NoFault)
	before := h.Snapshot()
	if got := h.Handle(evt42, AfterCommit); got != Crashed {
		t.Errorf("Handle(evt-42 again, after-commit) = %+v, want %+v", got, Crashed)
	}
	if after := h.Snapshot(); !reflect.DeepEqual(before, after) {
		t.Errorf("a repeat committed something:\nbefore: %+v\nafter:  %+v", before, after)
	}
}
