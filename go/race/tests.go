// Package race is exercise 03's harness in Go: two workers get the same event at once. It loads the
// schedules/race files, plays them with the scheduler on package database (the model, or PostgreSQL), judges
// what each worker answered and what was committed, and explores every interleaving; exercise 03's tests
// (go/exercises/03-the-race) call it with the handler under test. Separate, the check before the commit, is
// given there; HandleAtomically is the learner's.
package race

import (
	"fmt"
	"strings"
	"testing"

	"workbook/core"
	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
	"workbook/schedules"
)

// Exercise 03's tests of a race handler, as harness/race/play.ts and explore.ts are TypeScript's. Each takes
// the handler under test, so the stub's tests and the solution's are the very same calls:
//
//	func TestAtomic(t *testing.T) {
//		race.PlaySchedules(t, race.AtomicColumn, HandleAtomically)
//		race.OneTicketInEveryInterleaving(t, HandleAtomically, 2)
//	}
//
//	PlaySchedules(t, column, handle)           every schedules/race file, held to column
//	PlayOneAtATime(t, handle)                  the handler schedules, one delivery at a time (receipt-in-commit)
//	OneTicketInEveryInterleaving(t, handle, n) n workers on evt-42, every order: one ticket, one receipt
//	SomeInterleavingsBreak(t, handle)          two workers on evt-42: some orders leave two tickets
//	EveryInterleavingWithACrash(t, handle)     A dies after each of its operations, in every order
//	OneTicketPerEventProperty(t, handle)       random workers, events, crashes and orders (RACE_CASES, RACE_SEED)
//	PropertyFindsACounterexample(t, handle)    the same cases find the race in handle, and name the seed
//
// Each schedule that goes another way tells its whole story, as TypeScript's do.

// Handle is a race handler: one worker's code for one delivery, over its own connection.
type Handle = func(database.Connection, handler.Webhook) (handler.Outcome, error)

// PlaySchedules plays every schedules/race file against handle, held to column (separate or atomic).
func PlaySchedules(t *testing.T, column string, handle Handle) {
	t.Helper()
	defer scheduler.OneCore()()
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the race schedules, as "+column, func(t *testing.T) {
		for _, s := range all {
			t.Run(s.Name, func(t *testing.T) {
				schedules.Playing(t, s, column)
				if problem := judge(s, column, play(s, implementation{column, handle})); problem != "" {
					t.Error(problem)
				}
			})
		}
	})
}

// PlayOneAtATime plays the handler schedules one delivery at a time: handle must do everything exercise 02's
// receipt handler does. The race needs two at once.
func PlayOneAtATime(t *testing.T, handle Handle) {
	t.Helper()
	defer scheduler.OneCore()()
	all, err := handler.LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the handler schedules, one delivery at a time, as "+handler.ReceiptInCommit, func(t *testing.T) {
		for _, s := range all {
			t.Run(s.Name, func(t *testing.T) {
				schedules.Playing(t, s, handler.ReceiptInCommit)
				got, trace, err := playDeliveries(s, handle)
				if err != nil {
					t.Fatalf("Schedule %q (%s): %v\n\nWhat happened:\n%s", s.Name, s.File, err, trace)
				}
				if problem := handler.Judge(s, handler.ReceiptInCommit, got); problem != "" {
					t.Errorf("%s\n\nWhat happened:\n%s", problem, trace)
				}
			})
		}
	})
}

// OneTicketInEveryInterleaving runs workers (2 or 3) on evt-42 in every order their operations can take:
// one ticket, one receipt, one worker created it and the rest replayed it. Two workers: every order, none
// skipped. Three: every state they can reach.
func OneTicketInEveryInterleaving(t *testing.T, handle Handle, workers int) {
	t.Helper()
	explored := explore(t, handle, workers, scheduler.ExploreOptions{NoPrune: workers == 2})
	if explored.Failed > 0 {
		f := explored.Failures[0]
		t.Errorf("%s on evt-42: %d of %d interleavings break %q. The first:\n%s\n\ninterleaving: %s\n%s",
			workerCount(workers), explored.Failed, explored.Complete, oneTicketRule, f.Problem,
			strings.Join(f.Run.Steps, " "), database.TellTrace(f.Run.DB.TraceLines()))
		return
	}
	if workers == 2 && explored.Complete < 20 {
		t.Errorf("Two workers on evt-42: only %d complete interleavings; a handler that looks, saves and saves has at least 20", explored.Complete)
	}
}

// SomeInterleavingsBreak: two workers on evt-42, every order; some must leave two tickets, and the first
// is logged with its trace.
func SomeInterleavingsBreak(t *testing.T, handle Handle) {
	t.Helper()
	explored := explore(t, handle, 2, scheduler.ExploreOptions{NoPrune: true})
	if explored.Complete != 20 {
		t.Errorf("%d complete runs; six operations, three each, interleave 20 ways", explored.Complete)
	}
	if explored.Failed == 0 {
		t.Fatal("it survived every interleaving: the race this exercise is about did not happen")
	}
	first := explored.Failures[0]
	if !strings.Contains(first.Problem, "2 tickets, not 1") {
		t.Errorf("the first wrong run says %q, want two tickets", first.Problem)
	}
	t.Logf("it breaks in %d of %d interleavings. The first: %s\n%s", explored.Failed, explored.Complete, first.Problem, database.TellTrace(first.Run.DB.TraceLines()))
}

// EveryInterleavingWithACrash: A dies after each of its operations in turn, in every order; at most one
// ticket is left, and B answers with it.
func EveryInterleavingWithACrash(t *testing.T, handle Handle) {
	t.Helper()
	defer scheduler.OneCore()()
	for _, crash := range []Operation{"find-receipt", "save-ticket", "save-receipt", "commit"} {
		t.Run("A crashes after "+string(crash), func(t *testing.T) {
			setUp := func() (*database.Database, []scheduler.WorkerPlan[handler.Outcome], scheduler.Options[handler.Outcome]) {
				workers := []Worker{{Name: "A", Event: evt42, CrashAfter: crash}, {Name: "B", Event: evt42}}
				return database.New(), plans(workers, handle), scheduler.Options[handler.Outcome]{Tell: tell}
			}
			explored, err := scheduler.ExploreAll(setUp, oneTicketPerEvent, scheduler.ExploreOptions{NoPrune: true})
			if err != nil {
				t.Fatal(err)
			}
			if explored.Complete == 0 || explored.Failed > 0 {
				msg := fmt.Sprintf("A crashes after %s: %d of %d complete runs went wrong", crash, explored.Failed, explored.Complete)
				if explored.Failed > 0 {
					f := explored.Failures[0]
					msg += ": " + f.Problem + "\n\ninterleaving: " + strings.Join(f.Run.Steps, " ") + "\n" + database.TellTrace(f.Run.DB.TraceLines())
				}
				t.Error(msg)
			}
		})
	}
}

// raceSeeds are the property's cases: 100 in the learner's go test, RACE_CASES in verify (300, as
// TypeScript's), or the one RACE_SEED names.
func raceSeeds() []uint64 { return core.Seeds("RACE_CASES", "RACE_SEED", 100) }

// OneTicketPerEventProperty: up to four workers, random events, crashes and interleavings; handle keeps one
// ticket per event in every case. Cases come from fixed seeds, so a failure names its seed and replays the same.
func OneTicketPerEventProperty(t *testing.T, handle Handle) {
	t.Helper()
	defer scheduler.OneCore()()
	seeds := raceSeeds()
	for _, seed := range seeds {
		if problem := checkCase(handle, seed); problem != "" {
			t.Fatalf("The race property broke: RACE_SEED=%d (of %d cases): %s", seed, len(seeds), problem)
		}
	}
}

// PropertyFindsACounterexample: the property's cases catch handle leaving two tickets for one event.
func PropertyFindsACounterexample(t *testing.T, handle Handle) {
	t.Helper()
	defer scheduler.OneCore()()
	seeds := raceSeeds()
	for _, seed := range seeds {
		if problem := checkCase(handle, seed); problem != "" {
			t.Logf("RACE_SEED=%d finds it: %s", seed, strings.SplitN(problem, "\n", 2)[0])
			return
		}
	}
	t.Errorf("%d random cases never caught it leaving two tickets for one event", len(seeds))
}

const oneTicketRule = "one ticket, one receipt, one worker created #1 and the rest replayed #1"

func workerCount(n int) string {
	return map[int]string{2: "Two workers", 3: "Three workers"}[n]
}

// PredictionIsRight holds the guess to two-workers-alternate's separate column, then plays that race with
// handle (the given HandleSeparately): it must leave what was guessed, and the trace is shown.
func PredictionIsRight(t *testing.T, guess Prediction, handle Handle) {
	t.Helper()
	s, err := Alternate()
	if err != nil {
		t.Fatal(err)
	}
	if problem := JudgePrediction(guess, s); problem != "" {
		t.Fatal(problem)
	}
	got := play(s, implementation{SeparateColumn, handle})
	if got.problems != "" || len(got.db.Tickets) != guess.Tickets || len(got.db.Receipts) != guess.Receipts {
		t.Fatalf("The guess matched the schedule, but the race played now left %d tickets and %d receipts%s:\n%s",
			len(got.db.Tickets), len(got.db.Receipts), got.problems, got.trace)
	}
	t.Logf("Your prediction is right. Here is the race, step by step:\n%s", got.trace)
}

// Try calls handle once on an empty model database, for core.Written: a stub stops there.
func Try(handle Handle) {
	_, _ = handle(database.New().Connect("A", nil), evt42)
}
