package race

import (
	"errors"
	"fmt"
	"strings"

	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
)

// Exercise 03's runs as the grader's Go observer (go/grader/observe/03-the-race) reports them: the same
// plays the tests make, handed back as data for grader/checks/03-the-race.held.ts to judge, as
// grader/inside/03-the-race.observe.ts hands back TypeScript's.
//
//	answers, contents, trace, err := race.PlayForGrader(schedule, handle)   // a race schedule, as atomic
//	played, trace, err := race.DeliveriesForGrader(schedule, handle)        // one delivery at a time
//	ran, err := race.PropertyCaseForGrader(handle, workers, choices)        // one of the property's cases

// PlayForGrader plays one race schedule on the in-memory model: each worker's answer, what was committed,
// and the trace line by line. An error is a run that could not go on (a worker waiting on something else),
// or a *scheduler.LeftOpen with the run's trace after it.
func PlayForGrader(s Schedule, handle Handle) ([]Answer, database.Contents, []database.TraceLine, error) {
	got := play(s, implementation{AtomicColumn, handle})
	if got.leftOpen != nil {
		return nil, database.Contents{}, nil, fmt.Errorf("%w\n\nWhat happened, step by step:\n%s", got.leftOpen, got.trace)
	}
	if got.problems != "" {
		return nil, database.Contents{}, nil, fmt.Errorf("the run could not go on: %s\n\nWhat happened, step by step:\n%s", got.problems, got.trace)
	}
	return got.answers, got.db, got.lines, nil
}

// DeliveriesForGrader plays a handler schedule one delivery at a time, each its own worker, and says what
// happened as the tests print it. An error is a delivery whose worker stopped with one.
func DeliveriesForGrader(s handler.Schedule, handle Handle) (handler.Played, database.Contents, string, error) {
	db := database.New()
	played, trace, err := playDeliveriesOn(db, s, handle)
	return played, db.Committed(), trace, err
}

// CaseWorker is one worker of a property case as the grader draws it (harness/race/interleaving.ts's
// PropertyWorker): its event, and how many operations it lives for (nil: it never crashes).
type CaseWorker struct {
	Event                handler.Webhook `json:"event"`
	CrashAfterOperations *int            `json:"crashAfterOperations"`
}

// CaseRun is what one property case left: each worker's answer (A, B, … in the case's order), the committed
// rows, and the run told as harness/race/explore.ts's tellRun tells it.
type CaseRun struct {
	Answers  []Answer
	Contents database.Contents
	Told     string
}

// PropertyCaseForGrader runs one property case: the workers, each crashing after its count of operations,
// picked by the choices as scheduler.FromNumbers picks.
func PropertyCaseForGrader(handle Handle, workers []CaseWorker, choices []int) (CaseRun, error) {
	var plans []scheduler.WorkerPlan[handler.Outcome]
	for i, w := range workers {
		event := w.Event
		plan := scheduler.WorkerPlan[handler.Outcome]{
			Name: string(rune('A' + i)),
			Run:  func(conn database.Connection) (handler.Outcome, error) { return handle(conn, event) },
		}
		if w.CrashAfterOperations != nil {
			plan.Crash = &scheduler.CrashPoint{When: "after-operations", Count: *w.CrashAfterOperations}
		}
		plans = append(plans, plan)
	}
	db := database.New()
	run, err := scheduler.RunWorkers(db, plans, scheduler.FromNumbers(choices), scheduler.Options[handler.Outcome]{Tell: tell})
	if open := (*scheduler.LeftOpen)(nil); errors.As(err, &open) {
		return CaseRun{}, fmt.Errorf("%w\n\nWhat happened, step by step:\n%s", err, database.TellTrace(db.TraceLines()))
	}
	if err != nil {
		return CaseRun{}, errors.New(err.Error() + "\n\n" + database.TellTrace(db.TraceLines()))
	}
	var answers []Answer
	for _, plan := range plans {
		answers = append(answers, answerOf(run.Endings[plan.Name], plan.Name))
	}
	committed := db.Committed()
	list := func(lines []string) string {
		if len(lines) == 0 {
			return "    (none)"
		}
		return "    " + strings.Join(lines, "\n    ")
	}
	told := fmt.Sprintf("interleaving: %s\n%s\n\nAfter the run:\ntickets:\n%s\nreceipts:\n%s",
		strings.Join(run.Steps, " "), database.TellTrace(db.TraceLines()),
		list(saidTickets(committed.Tickets)), list(saidReceipts(committed.Receipts)))
	return CaseRun{answers, committed, told}, nil
}
