// Command 02-same-event observes a Go learner's exercise 02 for the grader: SameEvent and Replay on given
// pairs, and ReceiptHandler on handler schedules (grader/inside/02-same-event.observe.ts, in Go).
package main

import (
	"encoding/json"
	"errors"

	"workbook/core"
	same "workbook/exercises/02-same-event"
	"workbook/grader/observe"
)

func main() {
	fresh := func() observe.Handler { return &same.ReceiptHandler{} }
	observers := observe.HandlerObservers(fresh)
	// SameEvent's contract is a bool, which Go's types already hold it to.
	observers["same-event"] = func(input json.RawMessage) any {
		var pair [2]core.Webhook
		if err := json.Unmarshal(input, &pair); err != nil {
			return observe.Thrown{Name: "Error", Message: err.Error()}
		}
		return same.SameEvent(pair[0], pair[1])
	}
	observers["replay"] = func(input json.RawMessage) any {
		var pair [2]json.RawMessage
		var receipt core.Receipt
		var event core.Webhook
		if err := errors.Join(json.Unmarshal(input, &pair), json.Unmarshal(pair[0], &receipt), json.Unmarshal(pair[1], &event)); err != nil {
			return observe.Thrown{Name: "Error", Message: err.Error()}
		}
		return observe.Outcome(same.Replay(receipt, event))
	}
	// A repeat whose worker dies after the commit: its answer, and the store before and after it.
	observers["repeat-after-commit"] = func(input json.RawMessage) any {
		var event core.Webhook
		if err := json.Unmarshal(input, &event); err != nil {
			return observe.Thrown{Name: "Error", Message: err.Error()}
		}
		h := fresh()
		h.Handle(event, core.NoFault)
		before := observe.Database(h.Snapshot())
		answer := h.Handle(event, core.AfterCommit)
		return map[string]any{"answer": observe.Outcome(answer), "before": before, "after": observe.Database(h.Snapshot())}
	}
	observe.Run(observers)
}
