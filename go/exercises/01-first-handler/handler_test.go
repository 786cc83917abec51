package firsthandler

import (
	"reflect"
	"testing"

	"workbook/core"
	"workbook/given"
	"workbook/handler"
)

// TestFirstHandler is exercise 01's test, as exercises/01-first-handler/handler.test.ts is TypeScript's:
// the schedules as create-every-time, a snapshot that is a copy, and what each crash leaves behind.
func TestFirstHandler(t *testing.T) {
	core.Written(t, func() {
		h := &TicketHandler{}
		h.Handle(evt42, core.NoFault)
		h.Snapshot()
	})
	t.Run("the schedules, as create-every-time", func(t *testing.T) {
		handler.PlaySchedules(t, handler.CreateEveryTime, func() handler.Handler { return &TicketHandler{} })
	})
	t.Run("Snapshot hands out a copy: changing it leaves the store alone", func(t *testing.T) {
		handler.SnapshotIsACopy(t, &TicketHandler{})
	})
	t.Run("a crash before the commit saves nothing; a crash after it keeps the ticket", func(t *testing.T) {
		h := &TicketHandler{}
		steps := []struct {
			fault   core.Fault
			tickets []core.Ticket
			why     string
		}{
			{core.BeforeCommit, []core.Ticket{}, "the worker died before saving anything"},
			{core.AfterCommit, []core.Ticket{{ID: 1, Tenant: "acme", Subject: "Cannot sign in"}}, "the ticket was saved, then the worker died"},
		}
		for _, step := range steps {
			if got := h.Handle(evt42, step.fault); got != core.Crashed {
				t.Errorf("Handle(evt-42, %s) = %+v, want %+v (no answer)", step.fault, got, core.Crashed)
			}
			if got := h.Snapshot().Tickets; !reflect.DeepEqual(append([]core.Ticket{}, got...), step.tickets) {
				t.Errorf("after Handle(evt-42, %s), tickets %+v, want %+v: %s", step.fault, got, step.tickets, step.why)
			}
		}
	})
}

var evt42 = core.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}

// TestWritesItsOwn: the workbook hands exercise 02's answers on from exercise 03 (go/handler/replay.go); this
// exercise's file may not import them, or the tests above would pass on work it did not do.
func TestWritesItsOwn(t *testing.T) {
	given.Check(t, "01")
}
