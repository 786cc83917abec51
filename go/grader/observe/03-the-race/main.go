// Command 03-the-race observes a Go learner's exercise 03 for the grader, in the shapes
// grader/inside/03-the-race.observe.ts writes: the prediction as data, and HandleAtomically played on the
// handler schedules one delivery at a time, on the race schedules, and on the interleavings the grader
// drew. The judges (grader/checks/03-the-race.held.ts) read the answers and the committed rows; the trace
// and the stories only tell what happened.
package main

import (
	"encoding/json"
	"errors"

	"workbook/database"
	therace "workbook/exercises/03-the-race"
	"workbook/grader/observe"
	"workbook/handler"
	"workbook/race"
	"workbook/scheduler"
)

// atomically is the learner's HandleAtomically, with its stub kept.
func atomically(stub *observe.Stub) race.Handle {
	return func(conn database.Connection, event handler.Webhook) (handler.Outcome, error) {
		return observe.Call(stub, func() (handler.Outcome, error) { return therace.HandleAtomically(conn, event) })
	}
}

// answers are the workers' answers as the race schedules write them: a ticket id of 0 is null, and only a
// failure names its error.
func answers(all []race.Answer) []map[string]any {
	out := []map[string]any{}
	for _, a := range all {
		answer := map[string]any{"worker": a.Worker, "kind": string(a.Kind), "ticketId": nil}
		if a.TicketID != 0 {
			answer["ticketId"] = a.TicketID
		}
		if a.Kind == "failed" {
			answer["error"] = string(a.Error)
		}
		out = append(out, answer)
	}
	return out
}

// contents are the committed rows as harness/database's Contents: no rows is an empty list, never null.
func contents(c database.Contents) map[string]any {
	return map[string]any{
		"tickets":  append([]handler.Ticket{}, c.Tickets...),
		"receipts": append([]handler.Receipt{}, c.Receipts...),
		"outbox":   append([]database.OutboxRow{}, c.Outbox...),
	}
}

func trace(lines []database.TraceLine) []map[string]any {
	out := []map[string]any{}
	for _, line := range lines {
		out = append(out, map[string]any{"step": line.Step, "worker": line.Worker, "text": line.Text})
	}
	return out
}

func read[T any](input json.RawMessage) (T, *observe.Thrown) {
	var value T
	if err := json.Unmarshal(input, &value); err != nil {
		return value, &observe.Thrown{Name: "Error", Message: "the input could not be read: " + err.Error()}
	}
	return value, nil
}

func main() {
	observe.Run(observe.Observers{
		"prediction": func(json.RawMessage) any {
			guess := therace.Predict()
			said := map[string]any{"tickets": guess.Tickets, "receipts": guess.Receipts}
			if guess.SecondWorker != "" {
				said["secondWorker"] = guess.SecondWorker
			}
			return said
		},
		"one-at-a-time": func(input json.RawMessage) any {
			schedule, bad := read[handler.Schedule](input)
			if bad != nil {
				return *bad
			}
			var stub observe.Stub
			played, committed, story, err := race.DeliveriesForGrader(schedule, atomically(&stub))
			if stub.Stopped() != nil {
				return observe.Said(*stub.Stopped())
			}
			if err != nil {
				return observe.Thrown{Name: "ScheduleMismatch", Message: err.Error() + "\n\nWhat happened:\n" + story}
			}
			outcomes := []map[string]any{}
			for _, o := range played.Outcomes {
				outcomes = append(outcomes, observe.Outcome(o))
			}
			return map[string]any{"outcomes": outcomes, "db": contents(committed), "story": story}
		},
		"race": func(input json.RawMessage) any {
			schedule, bad := read[race.Schedule](input)
			if bad != nil {
				return *bad
			}
			var stub observe.Stub
			got, committed, lines, err := race.PlayForGrader(schedule, atomically(&stub))
			if err != nil {
				return observe.Thrown{Name: thrownName(err), Message: err.Error()}
			}
			return map[string]any{"answers": answers(got), "contents": contents(committed), "trace": trace(lines), "stub": stub.Said()}
		},
		"interleaving": func(input json.RawMessage) any {
			drawn, bad := read[struct {
				Workers []race.CaseWorker `json:"workers"`
				Choices []int             `json:"choices"`
			}](input)
			if bad != nil {
				return *bad
			}
			var stub observe.Stub
			ran, err := race.PropertyCaseForGrader(atomically(&stub), drawn.Workers, drawn.Choices)
			if err != nil {
				return observe.Thrown{Name: thrownName(err), Message: err.Error()}
			}
			return map[string]any{"answers": answers(ran.Answers), "contents": contents(ran.Contents), "told": ran.Told, "stub": stub.Said()}
		},
	})
}

// thrownName is the error's name as TypeScript's players throw it: LeftOpen for a worker that came back
// inside its transaction (harness/scheduler/left-open.ts), Error for any other run that could not go on.
func thrownName(err error) string {
	if open := (*scheduler.LeftOpen)(nil); errors.As(err, &open) {
		return "LeftOpen"
	}
	return "Error"
}
