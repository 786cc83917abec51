package handler

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"workbook/core"
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

// identityMeans is what a SameEvent case that goes wrong usually means.
const identityMeans = "an event is its tenant, source and event id, each compared exactly as sent; the subject is no part of it"

// SameEventCases: tenant, source and event id name a delivery, each compared as sent.
func SameEventCases(t *testing.T, SameEvent func(a, b Webhook) bool) {
	t.Helper()
	tests := []struct {
		name  string
		a, b  Webhook
		equal bool
		means string
		told  string // the case's name in its story, when it is not the name and its answer
	}{
		{"the same delivery again", evt42, evt42, true, identityMeans, ""},
		{"the same event with another subject (still the same event)", evt42, with(evt42, func(w *Webhook) { w.Subject = "Cannot export report" }), true, identityMeans, ""},
		{"another event id", evt42, with(evt42, func(w *Webhook) { w.EventID = "evt-43" }), false, identityMeans, ""},
		{"another tenant", evt42, with(evt42, func(w *Webhook) { w.Tenant = "globex" }), false, identityMeans, ""},
		{"another source", evt42, with(evt42, func(w *Webhook) { w.Source = "billing" }), false, identityMeans, ""},
		{"the event id in other letters (EVT-42)", evt42, with(evt42, func(w *Webhook) { w.EventID = "EVT-42" }), false, identityMeans, ""},
		{"the source in other letters (Helpdesk)", evt42, with(evt42, func(w *Webhook) { w.Source = "Helpdesk" }), false, identityMeans, ""},
		{"the tenant in other letters (ACME)", evt42, with(evt42, func(w *Webhook) { w.Tenant = "ACME" }), false, identityMeans, ""},
		{
			`tenant "a:b" + source "c" is not tenant "a" + source "b:c": compare fields, don't join them`,
			Webhook{Tenant: "a:b", Source: "c", EventID: "evt-1"},
			Webhook{Tenant: "a", Source: "b:c", EventID: "evt-1"},
			false,
			`joined with ":" they read the same, but they are two events`,
			`tenant "a:b" + source "c" is not tenant "a" + source "b:c": compare fields, don't join them`,
		},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			t.Helper()
			if got := SameEvent(test.a, test.b); got != test.equal {
				call := fmt.Sprintf("SameEvent(%s, %s)", SaidIdentity(test.a), SaidIdentity(test.b))
				// Told as TypeScript's test names the case: "…: same" or "…: not the same", unless told.
				named := test.told
				if named == "" {
					named = test.name + map[bool]string{true: ": same", false: ": not the same"}[test.equal]
				}
				t.Error(core.CaseStory(named, call, saidSame(test.equal), saidSame(got), test.means))
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
		means string
		told  string // the case's name in its story, as TypeScript's test names it
	}{
		{"the same request again gets the original ticket", evt42, Outcome{Kind: "replayed", TicketID: 7}, "the same event with the same subject is the same request: it gets the ticket its receipt names", "the same request again gets the original ticket"},
		{"the same key with another subject is a conflict", with(evt42, func(w *Webhook) { w.Subject = "Cannot export report" }), Outcome{Kind: "conflict"}, "the same key with another subject is another request: replaying would hand it an unrelated ticket", "the same key with another subject is a conflict, not an unrelated ticket"},
		{"the same key with its subject in other letters is a conflict too", with(evt42, func(w *Webhook) { w.Subject = "cannot sign in" }), Outcome{Kind: "conflict"}, "subjects are compared exactly, as sent: in other letters it is another request", "the same key with its subject in other letters is a conflict too: subjects are compared exactly"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			t.Helper()
			if got := Replay(receipt, test.event); got != test.want {
				call := fmt.Sprintf("Replay(receipt #7 for %q, %q)", receipt.Event.Subject, test.event.Subject)
				t.Error(core.CaseStory(test.told, call, saidOutcome(test.want), saidOutcome(got), test.means))
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
	const name = "a repeat whose worker dies after the commit saves nothing new"
	if got := h.Handle(evt42, AfterCommit); got != Crashed {
		t.Error(core.CaseStory(name, "Handle(evt-42 again, after-commit)", saidOutcome(Crashed), saidOutcome(got), "a worker that dies answers nothing"))
	}
	if after := h.Snapshot(); !reflect.DeepEqual(before, after) {
		t.Error(core.CaseStory(name, "the store after it", saidJSON(before), saidJSON(after), "a repeat commits nothing"))
	}
}

// saidSame is SameEvent's answer with what it means.
func saidSame(same bool) string {
	if same {
		return "true (the same event)"
	}
	return "false (two events)"
}

// saidJSON is a store as JSON, for a case that compares two.
func saidJSON(value any) string {
	text, err := json.Marshal(value)
	if err != nil {
		return fmt.Sprint(value)
	}
	return string(text)
}
