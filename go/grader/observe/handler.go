package observe

import (
	"encoding/json"

	"workbook/core"
)

// Handler is what exercises 01 and 02 write: a ticket handler with its store.
type Handler interface {
	Handle(event core.Webhook, fault core.Fault) core.Outcome
	Snapshot() core.Database
}

// Outcome is an answer as the TypeScript model writes it: a ticket id of 0 is null.
func Outcome(o core.Outcome) map[string]any {
	answer := map[string]any{"kind": string(o.Kind), "ticketId": nil}
	if o.TicketID != 0 {
		answer["ticketId"] = o.TicketID
	}
	return answer
}

// Database is a store as plain data: no rows is an empty list, never null.
func Database(db core.Database) map[string]any {
	tickets := append([]core.Ticket{}, db.Tickets...)
	receipts := append([]core.Receipt{}, db.Receipts...)
	return map[string]any{"tickets": tickets, "receipts": receipts}
}

// delivery is one delivery of a handler schedule, as job.json hands it in.
type delivery struct {
	Event core.Webhook `json:"event"`
	Fault core.Fault   `json:"fault"`
}

// HandlerObservers plays handler schedules on a fresh handler, and snapshot() as a copy
// (grader/inside/01-first-handler.observe.ts, whose shapes these are).
func HandlerObservers(fresh func() Handler) Observers {
	return Observers{
		"schedule": func(input json.RawMessage) any {
			var schedule struct {
				Deliveries []delivery `json:"deliveries"`
			}
			if err := json.Unmarshal(input, &schedule); err != nil {
				return Thrown{"Error", "the schedule could not be read: " + err.Error()}
			}
			h := fresh()
			outcomes := []map[string]any{}
			for _, d := range schedule.Deliveries {
				fault := d.Fault
				if fault == "" {
					fault = core.NoFault
				}
				outcomes = append(outcomes, Outcome(h.Handle(d.Event, fault)))
			}
			return map[string]any{"outcomes": outcomes, "db": Database(h.Snapshot())}
		},
		"snapshot-copy": func(json.RawMessage) any { return SnapshotCopy(fresh()) },
	}
}

// SnapshotCopy is the store before and after a caller scribbles on what Snapshot handed out.
func SnapshotCopy(h Handler) map[string]any {
	h.Handle(core.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}, core.NoFault)
	before := Database(h.Snapshot())
	copied := h.Snapshot()
	copied.Tickets = append(copied.Tickets, core.Ticket{ID: 99, Tenant: "mallory", Subject: "Pushed into a snapshot"})
	copied.Receipts = append(copied.Receipts, core.Receipt{
		Event:    core.Webhook{Tenant: "mallory", Source: "x", EventID: "x", Subject: "x"},
		TicketID: 99,
	})
	if len(copied.Tickets) > 0 {
		copied.Tickets[0].Subject = "Changed through a snapshot"
	}
	if len(copied.Receipts) > 0 {
		copied.Receipts[0].TicketID = 99
	}
	return map[string]any{"before": before, "after": Database(h.Snapshot())}
}
