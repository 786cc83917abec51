package endpoint

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"workbook/core"
	"workbook/database/postgres"
	"workbook/handler"
	"workbook/schedules"
)

// TestAStubStopsEachExploration: routes that are still stubs stop every exploration with their own
// NotWrittenYet, as TypeScript's explorations.test.ts pins, so what a learner reads is core.Written's
// "is not written yet", never a promise the stub seemed to break.
func TestAStubStopsEachExploration(t *testing.T) {
	stub := Code{
		Tickets:  func(Options) http.Handler { panic(core.Todo("Tickets", "06-ticket-endpoint/endpoint.go")) },
		Webhooks: func(Options) http.Handler { panic(core.Todo("Webhooks", "06-ticket-endpoint/endpoint.go")) },
	}
	z := sizes{crashSequences: 1, modelRuns: 1, seed: defaultSeed}
	for _, exploration := range []struct {
		name string
		play func()
	}{
		{"the crash points", func() { _, _ = crashProblem(stub, z) }},
		{"the overlaps", func() { _, _ = overlapProblem(stub, z) }},
		{"the model", func() { modelProblem(stub, z) }},
	} {
		t.Run(exploration.name, func(t *testing.T) {
			defer func() {
				if _, stopped := recover().(core.NotWrittenYet); !stopped {
					t.Errorf("%s went on past a stub: core.Written would not be the first to say so", exploration.name)
				}
			}()
			exploration.play()
		})
	}
}

// TestAPanicIsToldInTheStory: a route that panics gets no answer, and every exploration tells it in the
// sequence's story, with the line of 06's file it came from, as TypeScript's tell "your route threw": the
// test binary goes on.
func TestAPanicIsToldInTheStory(t *testing.T) {
	var none *KeyRecord
	panics := Code{
		Tickets: func(Options) http.Handler {
			return http.HandlerFunc(func(http.ResponseWriter, *http.Request) { _ = none.Key })
		},
		Webhooks: solution.Webhooks,
	}
	z := sizes{crashSequences: 1, modelRuns: 5, seed: defaultSeed}
	for _, exploration := range []struct {
		name string
		play func() string
	}{
		{"the crash points", func() string { problem, _ := crashProblem(panics, z); return problem }},
		{"the overlaps", func() string { problem, _ := overlapProblem(panics, z); return problem }},
		{"the model", func() string { return modelProblem(panics, z) }},
	} {
		t.Run(exploration.name, func(t *testing.T) {
			if problem := exploration.play(); !strings.Contains(problem, "no answer: your route panicked: runtime error: invalid memory address") {
				t.Errorf("%s did not tell the panic:\n%s", exploration.name, problem)
			}
		})
	}
	stack := []byte("goroutine 7 [running]:\nworkbook/endpoint.send.func1()\n\t/w/go/endpoint/calls.go:84 +0x1d\n" +
		"workbook/exercises/06-ticket-endpoint.Tickets.func1(…)\n\t/w/go/exercises/06-ticket-endpoint/endpoint.go:123 +0x5a\n")
	if got, want := panicked("boom", stack), "boom, at endpoint.go:123"; got != want {
		t.Errorf("panicked(boom, a stack through 06's file) = %q, want %q", got, want)
	}
}

// TestAPanicOverHTTPIsToldInTheStory: over HTTP the connection drops, as net/http drops it, and the
// schedule's story says what the route panicked with, with no stack logged in its way.
func TestAPanicOverHTTPIsToldInTheStory(t *testing.T) {
	stores := NewStores(postgres.ServerURL(t))
	t.Cleanup(stores.Close)
	var none *StoredReceipt
	panics := Code{
		Tickets: func(Options) http.Handler {
			return http.HandlerFunc(func(http.ResponseWriter, *http.Request) { _ = none.TicketID })
		},
		Webhooks: func(Options) http.Handler {
			return http.HandlerFunc(func(http.ResponseWriter, *http.Request) { _ = none.TicketID })
		},
	}
	all, err := schedules.Load[Schedule]("endpoint")
	if err != nil {
		t.Fatal(err)
	}
	first := all[slices.IndexFunc(all, func(s Schedule) bool { return s.Name == "first-request-creates" })]
	told := judge(first, "everything", play(t, panics, first, "everything", stores))
	if !strings.Contains(told, "- your route panicked: runtime error: invalid memory address") {
		t.Errorf("the tickets route panicked, but the story does not say so:\n%s", told)
	}
	deliveries, err := schedules.Load[handler.Schedule]("handler")
	if err != nil {
		t.Fatal(err)
	}
	if _, stopped := playWebhooks(t, panics, deliveries[0], stores); !strings.Contains(stopped, "delivery 1 got no answer: your route panicked: runtime error") {
		t.Errorf("the webhooks route panicked, but the play stopped with %q", stopped)
	}
}
