// Command 07-close-and-reopen observes a Go learner's exercise 07 for the grader: SetStatus and AddComment
// played on status schedules, and the two given cases (grader/inside/07-close-and-reopen.observe.ts, in Go).
package main

import (
	"encoding/json"

	reopen "workbook/exercises/07-close-and-reopen"
	"workbook/grader/observe"
	"workbook/handler"
	"workbook/status"
)

var rules = status.Rules{SetStatus: reopen.SetStatus, AddComment: reopen.AddComment}

// answer is an answer as the TypeScript model writes it: only the fields its kind has.
func answer(a status.Answer) map[string]any {
	out := map[string]any{"kind": a.Kind}
	switch a.Kind {
	case "set":
		out["status"], out["version"] = a.Status, a.Version
	case "stale":
		out["version"] = a.Version
	case "commented":
		out["comment"] = a.Comment
	}
	return out
}

// store is a store as plain data: a ticket no change has touched has lastChange null.
func store(s status.Store) map[string]any {
	tickets := []map[string]any{}
	for _, t := range s.Tickets {
		var last any
		if t.LastChange != "" {
			last = t.LastChange
		}
		tickets = append(tickets, map[string]any{
			"id": t.ID, "status": t.Status, "version": t.Version, "lastChange": last,
			"comments": append([]string{}, t.Comments...),
		})
	}
	receipts := []map[string]any{}
	for _, r := range s.Receipts {
		receipts = append(receipts, map[string]any{"changeId": r.ChangeID, "answer": answer(r.Answer)})
	}
	return map[string]any{"tickets": tickets, "receipts": receipts}
}

func answers(h *status.Handler, changes []status.Delivery) []map[string]any {
	out := []map[string]any{}
	for _, d := range changes {
		fault := d.Fault
		if fault == "" {
			fault = handler.NoFault
		}
		out = append(out, answer(h.Handle(d.Change, fault)))
	}
	return out
}

func closing(changeID string, decidedOn int) status.Delivery {
	return status.Delivery{Change: status.Change{Kind: "set-status", ChangeID: changeID, TicketID: 1, Status: "closed", DecidedOn: decidedOn}}
}

func fresh() *status.Handler {
	return status.NewHandler(rules, []status.StartTicket{{ID: 1, Status: "open", Version: 1}})
}

func main() {
	observe.Run(observe.Observers{
		"schedule": func(input json.RawMessage) any {
			var schedule struct {
				Start      []status.StartTicket `json:"start"`
				Deliveries []status.Delivery    `json:"deliveries"`
			}
			if err := json.Unmarshal(input, &schedule); err != nil {
				return observe.Thrown{Name: "Error", Message: err.Error()}
			}
			h := status.NewHandler(rules, schedule.Start)
			return map[string]any{"answers": answers(h, schedule.Deliveries), "store": store(h.Snapshot())}
		},
		"close-five-times": func(json.RawMessage) any {
			h := fresh()
			five := []status.Delivery{}
			for range 5 {
				five = append(five, closing("chg-1", 1))
			}
			return map[string]any{"answers": answers(h, five), "store": store(h.Snapshot())}
		},
		"stale-change": func(json.RawMessage) any {
			h := fresh()
			answers(h, []status.Delivery{closing("chg-1", 1)})
			before := store(h.Snapshot())
			reopened := closing("chg-2", 1)
			reopened.Change.Status = "open"
			got := answers(h, []status.Delivery{reopened})[0]
			return map[string]any{"answer": got, "before": before, "after": store(h.Snapshot())}
		},
	})
}
