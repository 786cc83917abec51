package core

import (
	"fmt"
	"testing"
)

// stopping is a top-level test that reaches Written: what it says in Fatal is kept, not acted on.
type stopping struct {
	testing.TB
	name string
	said string
}

func (s *stopping) Name() string      { return s.name }
func (s *stopping) Helper()           {}
func (s *stopping) Fatal(args ...any) { s.said = fmt.Sprint(args...) }

// TestWrittenTellsEachStubOnce: the first test to stop at a stub tells its story, each later one that stops
// at the same stub one line naming it, a test stopping at another stub that stub's story, and a test run
// again (go test -count) its story again.
func TestWrittenTellsEachStubOnce(t *testing.T) {
	told = storiesTold{first: map[NotWrittenYet]string{}}
	t.Cleanup(func() { told = storiesTold{first: map[NotWrittenYet]string{}} })
	tickets := Todo("Tickets", "06-ticket-endpoint/endpoint.go")
	webhooks := Todo("Webhooks", "06-ticket-endpoint/endpoint.go")
	pointer := "Tickets is not written yet (go/exercises/06-ticket-endpoint/endpoint.go): see TestEndpointPlaysTheSchedules above."
	steps := []struct {
		test string
		stub NotWrittenYet
		want string
	}{
		{"TestEndpointPlaysTheSchedules", tickets, tickets.Error()},
		{"TestWebhooksPlayTheHandlerSchedules", tickets, pointer},
		{"TestExplorations", tickets, pointer},
		{"TestWebhooksOnly", webhooks, webhooks.Error()},
		{"TestEndpointPlaysTheSchedules", tickets, tickets.Error()},
	}
	for i, step := range steps {
		test := &stopping{name: step.test}
		Written(test, func() { panic(step.stub) })
		if test.said != step.want {
			t.Errorf("step %d: %s stopped at %s and said\n%s\nwant\n%s", i+1, step.test, step.stub.What, test.said, step.want)
		}
	}
}

// TestWrittenPassesOtherPanicsOn: a panic that is no stub's is the learner's code's, and goes on as it was.
func TestWrittenPassesOtherPanicsOn(t *testing.T) {
	defer func() {
		if got := recover(); got != "boom" {
			t.Errorf("Written recovered %v, want the panic \"boom\" to go on", got)
		}
	}()
	Written(&stopping{name: "TestBoom"}, func() { panic("boom") })
	t.Error("Written returned after a panic that is no stub's")
}
