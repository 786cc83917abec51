// Command 01-first-handler observes a Go learner's exercise 01 for the grader: handler schedules played on
// its TicketHandler, and Snapshot as a copy.
package main

import (
	first "workbook/exercises/01-first-handler"
	"workbook/grader/observe"
)

func main() {
	observe.Run(observe.HandlerObservers(func() observe.Handler { return &first.TicketHandler{} }))
}
