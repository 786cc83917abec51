package handler

import (
	"errors"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/quick"
)

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

// SameEventProperty is exercise 02's property of SameEvent: true exactly when tenant, source and event id are
// each equal, for events whose fields, joined into one string with any separator or none, read alike. It
// plays 2,000 pairs from a fixed seed, and names the first pair that breaks it.
//
//	t.Run("property: …", func(t *testing.T) { handler.SameEventProperty(t, SameEvent) })
func SameEventProperty(t *testing.T, SameEvent func(a, b Webhook) bool) {
	t.Helper()
	fieldByField := func(a, b Webhook) bool {
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
