package core

import (
	"fmt"
	"strings"
	"sync"
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
// the test stops there and none of its subtests start. The first test of the binary to stop at a stub tells
// its story (Error); every later one that stops at the same stub fails in one line naming that test, so a
// run of a shipped exercise tells each stub's story once. Any other panic goes on as it was.
func Written(t testing.TB, try func()) {
	t.Helper()
	defer func() {
		switch stopped := recover().(type) {
		case nil:
		case NotWrittenYet:
			t.Helper()
			t.Fatal(told.story(stopped, t.Name()))
		default:
			panic(stopped)
		}
	}()
	try()
}

// told is which top-level test first told each stub's story, in this test binary.
var told = storiesTold{first: map[NotWrittenYet]string{}}

type storiesTold struct {
	lock  sync.Mutex
	first map[NotWrittenYet]string
}

// story is what the test named test says when it stops at stub: the whole story if no other test told it
// first (a test run again, as -count runs it, tells it again), else one line that points to that test.
func (s *storiesTold) story(stub NotWrittenYet, test string) string {
	s.lock.Lock()
	defer s.lock.Unlock()
	first, seen := s.first[stub]
	if !seen || first == test {
		s.first[stub] = test
		return stub.Error()
	}
	return fmt.Sprintf("%s is not written yet (go/exercises/%s): see %s above.", stub.What, stub.File, first)
}
