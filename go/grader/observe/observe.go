// Package observe is grader/inside/main.ts for a Go submission: it plays every input of job.json (the held-out
// ones last, from fd 5, which package channel has already read and closed) through one exercise's observers,
// and writes one sealed line per input, in the shapes the TypeScript observers write, so the same judges
// and the same expectations grade both languages.
//
//	func main() {
//		observe.Run(observe.Observers{
//			"schedule": func(input json.RawMessage) any { … the learner's TicketHandler on it … },
//		})
//	}
//
// Each exercise's main is go/grader/observe/<folder>/main.go, built by the grader with the learner's files
// in go/exercises/<folder>/ (grader/sandbox/go-build.ts). An observer calls the learner's code on one input
// and returns what it did as plain data; it never judges. A panic in the learner's code is what it threw.
package observe

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sort"

	"workbook/channel"
	"workbook/core"
)

// Observer calls the learner's code on one input and returns what it did.
type Observer func(input json.RawMessage) any

// Observers are an exercise's observers, by the names its checks give them (grader/checks/<folder>.held.ts).
type Observers map[string]Observer

// Thrown is what a panic of the learner's code said: its name and message, as the judges read them.
type Thrown struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// Said turns what a panic carried into its name and message.
func Said(recovered any) Thrown {
	switch value := recovered.(type) {
	case core.NotWrittenYet:
		return Thrown{"NotWrittenYet", value.Error()}
	case runtime.Error:
		return Thrown{"Error", value.Error()}
	case error:
		return Thrown{"Error", value.Error()}
	default:
		return Thrown{"Error", fmt.Sprint(value)}
	}
}

// one plays one input, and turns a panic into the line that says what was thrown.
func one(observer Observer, c, i int, input json.RawMessage) (line map[string]any) {
	defer func() {
		if recovered := recover(); recovered != nil {
			line = map[string]any{"c": c, "i": i, "threw": Said(recovered)}
		}
	}()
	answer := observer(input)
	if thrown, ok := answer.(Thrown); ok {
		return map[string]any{"c": c, "i": i, "threw": thrown}
	}
	return map[string]any{"c": c, "i": i, "ok": answer}
}

// Run plays the job through the observers and ends the process.
func Run(observers Observers) {
	job, err := channel.Job()
	if err != nil {
		channel.Send(map[string]any{"exited": 70, "while": "reading job.json: " + err.Error()})
		os.Exit(70)
	}
	order := make([]int, len(job.Checks))
	for c := range order {
		order[c] = c
	}
	// Every given check first, then the held-out ones.
	sort.SliceStable(order, func(a, b int) bool { return !job.Checks[order[a]].HeldOut && job.Checks[order[b]].HeldOut })
	for _, c := range order {
		check := job.Checks[c]
		observer := observers[check.Observer]
		for i, input := range check.Cases {
			if observer == nil {
				channel.Send(map[string]any{"c": c, "i": i, "threw": Thrown{"Error", "no Go observer " + check.Observer}})
				continue
			}
			channel.Send(one(observer, c, i, input))
		}
	}
	channel.Send(map[string]any{"done": true})
	os.Exit(0)
}
