package handler

import (
	"encoding/json"
	"errors"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/quick"
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
		{"the event id in other letters (EVT-42)", evt42, with(evt42, func(w *Webhook) { w.EventID = "EVT-42" }), false},
		{"the source in other letters (Helpdesk)", evt42, with(evt42, func(w *Webhook) { w.Source = "Helpdesk" }), false},
		{"the tenant in other letters (ACME)", evt42, with(evt42, func(w *Webhook) { w.Tenant = "ACME" }), false},
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

// eventPair is two events for the SameEvent property, made the way the TypeScript property makes them
// (exercises/02-same-event/handler.test.ts): field values from a tiny alphabet holding the usual
// separators and two cases of one letter, paired as look-alikes (a boundary between two fields moves,
// so the events read the same joined with one separator), as one field in other letters, as the same
// event twice, or at random.
type eventPair struct{ a, b Webhook }

var separators = []string{"", ":", "/", "|", "-", "."}

func (eventPair) Generate(r *rand.Rand, _ int) reflect.Value {
	pieces := []string{"a", "A", "b", ":", "/", "|", "-", "."}
	text := func() string {
		var b strings.Builder
		for range r.Intn(5) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		return b.String()
	}
	event := func(tenant, source, eventID string) Webhook {
		return Webhook{Tenant: tenant, Source: source, EventID: eventID, Subject: "x"}
	}
	x, y, z, u := text(), text(), text(), text()
	var pair eventPair
	switch r.Intn(4) {
	case 0:
		sep := separators[r.Intn(len(separators))]
		if r.Intn(2) == 0 {
			pair = eventPair{event(x+sep+y, z, u), event(x, y+sep+z, u)}
		} else {
			pair = eventPair{event(u, x+sep+y, z), event(u, x, y+sep+z)}
		}
	case 1:
		fields := []string{x, y, z}
		which := r.Intn(3)
		flipped := slices.Clone(fields)
		flipped[which] = strings.ToUpper(flipped[which])
		pair = eventPair{event(fields[0], fields[1], fields[2]), event(flipped[0], flipped[1], flipped[2])}
	case 2:
		pair = eventPair{event(x, y, z), event(x, y, z)}
	default:
		pair = eventPair{event(x, y, z), event(u, text(), text())}
	}
	return reflect.ValueOf(pair)
}

// TestSameEventProperty: SameEvent is true exactly when tenant, source and event id are each equal, for
// events whose fields, joined into one string with any separator or none, read alike.
func TestSameEventProperty(t *testing.T) {
	fieldByField := func(a, b Webhook) bool {
		return a.Tenant == b.Tenant && a.Source == b.Source && a.EventID == b.EventID
	}
	property := func(p eventPair) bool {
		want := fieldByField(p.a, p.b)
		return SameEvent(p.a, p.b) == want && SameEvent(p.b, p.a) == want
	}
	config := &quick.Config{MaxCount: 2000, Rand: rand.New(rand.NewSource(20260212))}
	if err := quick.Check(property, config); err != nil {
		var failed *quick.CheckError
		if errors.As(err, &failed) {
			p := failed.In[0].(eventPair)
			t.Fatalf("SameEvent(%q, %q) = %v, but field by field they are %s",
				[]string{p.a.Tenant, p.a.Source, p.a.EventID}, []string{p.b.Tenant, p.b.Source, p.b.EventID},
				SameEvent(p.a, p.b), map[bool]string{true: "the same event", false: "two events"}[fieldByField(p.a, p.b)])
		}
		t.Fatal(err)
	}
}

func TestReplay(t *testing.T) {
	receipt := Receipt{Event: evt42, TicketID: 7}
	tests := []struct {
		name  string
		event Webhook
		want  Outcome
	}{
		{"the same request again gets the original ticket", evt42, Outcome{"replayed", 7}},
		{"the same key with another subject is a conflict", with(evt42, func(w *Webhook) { w.Subject = "Cannot export report" }), Outcome{"conflict", 0}},
		{"the same key with its subject in other letters is a conflict too", with(evt42, func(w *Webhook) { w.Subject = "cannot sign in" }), Outcome{"conflict", 0}},
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
