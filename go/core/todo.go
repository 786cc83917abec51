package core

import (
	"fmt"
	"strings"
	"testing"
)

// NotWrittenYet is what a stub panics with until the learner writes it: which function, in which
// exercise file. Its message says where to write it, where to read about it, and how to get a hint.
//
//	func (h *TicketHandler) Handle(event Webhook, fault Fault) Outcome {
//		panic(Todo("TicketHandler.Handle", "01-first-handler/handler.go"))
//	}
type NotWrittenYet struct {
	What string // "TicketHandler.Handle"
	File string // "01-first-handler/handler.go", under go/exercises/
}

// Todo is the stub's stop for the function named what, in file (under go/exercises/).
func Todo(what, file string) NotWrittenYet { return NotWrittenYet{what, file} }

// Error says it in the lines TypeScript's stubs use (harness/core/todo.ts), the commands Go's.
func (n NotWrittenYet) Error() string {
	folder, _, _ := strings.Cut(n.File, "/")
	id, _, _ := strings.Cut(folder, "-")
	return strings.Join([]string{
		fmt.Sprintf("%s is not written yet.", n.What),
		fmt.Sprintf("  write it in  go/exercises/%s", n.File),
		fmt.Sprintf("  read         exercises/%s/README.md (what it should do, and why)", folder),
		fmt.Sprintf("  stuck?       go run ./cmd/workbook hint %s", id),
	}, "\n")
}

// Written calls the learner's functions once, in try, before a test plays anything: if one is still a stub,
// the test stops there with the stub's message, once, and none of its subtests start. Any other panic goes
// on as it was.
func Written(t testing.TB, try func()) {
	t.Helper()
	defer func() {
		switch stopped := recover().(type) {
		case nil:
		case NotWrittenYet:
			t.Helper()
			t.Fatal(stopped.Error())
		default:
			panic(stopped)
		}
	}()
	try()
}
