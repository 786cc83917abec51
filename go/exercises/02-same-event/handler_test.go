package sameevent

import (
	"errors"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/quick"

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
	t.Run("property: SameEvent is true exactly when tenant, source and event id are each equal", sameEventProperty)
}

// eventPair is two events for the SameEvent property, made the way the TypeScript property makes them
// (exercises/02-same-event/handler.test.ts): field values from a tiny alphabet holding the usual
// separators and two cases of one letter, paired as look-alikes (a boundary between two fields moves,
// so the events read the same joined with one separator), as one field in other letters, as the same
// event twice, or at random.
type eventPair struct{ a, b core.Webhook }

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
	event := func(tenant, source, eventID string) core.Webhook {
		return core.Webhook{Tenant: tenant, Source: source, EventID: eventID, Subject: "x"}
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

// sameEventProperty: SameEvent is true exactly when tenant, source and event id are each equal, for
// events whose fields, joined into one string with any separator or none, read alike.
func sameEventProperty(t *testing.T) {
	fieldByField := func(a, b core.Webhook) bool {
		return a.Tenant == b.Tenant && a.Source == b.Source && a.EventID == b.EventID
	}
	property := func(p eventPair) bool {
		want := fieldByField(p.a, p.b)
		return SameEvent(p.a, p.b) == want && SameEvent(p.b, p.a) == want
	}
	const seed = 20260212
	config := &quick.Config{MaxCount: 2000, Rand: rand.New(rand.NewSource(seed))}
	if err := quick.Check(property, config); err != nil {
		var failed *quick.CheckError
		if errors.As(err, &failed) {
			p := failed.In[0].(eventPair)
			t.Fatalf("SameEvent(%q, %q) = %v, but field by field they are %s.\n"+
				"Compare the three fields one by one, exactly as sent. (testing/quick, seed %d)",
				[]string{p.a.Tenant, p.a.Source, p.a.EventID}, []string{p.b.Tenant, p.b.Source, p.b.EventID},
				SameEvent(p.a, p.b), map[bool]string{true: "the same event", false: "two events"}[fieldByField(p.a, p.b)], seed)
		}
		t.Fatal(err)
	}
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
