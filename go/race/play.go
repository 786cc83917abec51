package race

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
	"workbook/schedules"
)

// implementation is one column of a race schedule, and the handler held to it.
type implementation struct {
	column string
	handle func(database.Connection, handler.Webhook) (handler.Outcome, error)
}

func tell(o handler.Outcome) string {
	return "answers: " + saidAnswer(answerOf(scheduler.Ending[handler.Outcome]{Kind: scheduler.Answered, Value: o}, ""))
}

// plans turns a schedule's workers into the scheduler's, each running handle on its event.
func plans(workers []Worker, handle func(database.Connection, handler.Webhook) (handler.Outcome, error)) []scheduler.WorkerPlan[handler.Outcome] {
	var all []scheduler.WorkerPlan[handler.Outcome]
	for _, w := range workers {
		plan := scheduler.WorkerPlan[handler.Outcome]{
			Name: w.Name,
			Run:  func(conn database.Connection) (handler.Outcome, error) { return handle(conn, w.Event) },
		}
		if w.CrashAfter != "" {
			plan.Crash = &scheduler.CrashPoint{When: "after", Operation: string(w.CrashAfter)}
		}
		all = append(all, plan)
	}
	return all
}

func answerOf(ending scheduler.Ending[handler.Outcome], worker string) Answer {
	switch ending.Kind {
	case scheduler.Answered:
		return Answer{Worker: worker, Kind: AnswerKind(ending.Value.Kind), TicketID: ending.Value.TicketID}
	case scheduler.Failed:
		code := ErrorCode("other")
		var dbErr *database.Error
		if errors.As(ending.Err, &dbErr) {
			code = ErrorCode(dbErr.Code)
		}
		return Answer{Worker: worker, Kind: "failed", Error: code}
	default:
		return Answer{Worker: worker, Kind: "crashed"}
	}
}

func saidAnswer(a Answer) string {
	switch {
	case a.Kind == "failed":
		return fmt.Sprintf("failed with %s", a.Error)
	case a.TicketID != 0:
		return fmt.Sprintf("%s #%d", a.Kind, a.TicketID)
	case a.Kind == "conflict":
		return "refused (conflict)"
	case a.Kind == "crashed":
		return "crashed (no answer)"
	default:
		return string(a.Kind)
	}
}

// played is what a run left: each worker's answer, the committed rows, and the trace as sentences.
type played struct {
	answers  []Answer
	db       database.Contents
	trace    string
	problems string // the run itself went wrong (a worker waited on something else, say)
}

func play(s Schedule, impl implementation) played {
	return playOn(database.New(), s, impl)
}

// playOn plays a schedule on db: the in-memory model, or PostgreSQL.
func playOn(db database.Shared, s Schedule, impl implementation) played {
	run, err := scheduler.RunWorkers(db, plans(s.Workers, impl.handle), scheduler.InTurn(s.Interleaving...), scheduler.Options[handler.Outcome]{Tell: tell})
	if err != nil {
		return played{problems: err.Error(), trace: database.TellTrace(db.TraceLines())}
	}
	var answers []Answer
	for _, w := range s.Workers {
		answers = append(answers, answerOf(run.Endings[w.Name], w.Name))
	}
	return played{answers, db.Committed(), database.TellTrace(db.TraceLines()), ""}
}

func saidAnswers(answers []Answer) []string {
	var lines []string
	for _, a := range answers {
		lines = append(lines, a.Worker+" "+saidAnswer(a))
	}
	return lines
}

func saidTickets(tickets []handler.Ticket) []string {
	var lines []string
	for _, t := range tickets {
		lines = append(lines, fmt.Sprintf("#%d %s: %s", t.ID, t.Tenant, t.Subject))
	}
	return lines
}

func saidReceipts(receipts []handler.Receipt) []string {
	var lines []string
	for _, r := range receipts {
		lines = append(lines, fmt.Sprintf("%s %q → #%d", handler.SaidIdentity(r.Event), r.Subject, r.TicketID))
	}
	return lines
}

// judge returns "" when the run left what the schedule's column expects; otherwise a side-by-side
// report of answers and rows, and the run step by step.
func judge(s Schedule, column string, got played) string {
	heading := fmt.Sprintf("schedule %q (%s, %s): %s", s.Name, s.Title, s.File, s.Story)
	if got.problems != "" {
		return fmt.Sprintf("%s\nthe run could not go on: %s\n\nThe run, step by step:\n%s", heading, got.problems, got.trace)
	}
	want := s.Expected(column)
	rows := []schedules.Row{
		{Label: "answers", Expected: saidAnswers(want.Answers), Actual: saidAnswers(got.answers)},
		{Label: "tickets", Expected: saidTickets(want.Tickets), Actual: saidTickets(got.db.Tickets)},
		{Label: "receipts", Expected: saidReceipts(want.Receipts), Actual: saidReceipts(got.db.Receipts)},
	}
	var differ []string
	for _, row := range rows {
		if !slices.Equal(row.Expected, row.Actual) {
			differ = append(differ, row.Label)
		}
	}
	if len(differ) == 0 {
		return ""
	}
	return fmt.Sprintf("%s\nThe %s differ:\n%s\n\nThe run, step by step:\n%s",
		heading, strings.Join(differ, " and "), schedules.SideBySide(rows), got.trace)
}

// crashForFault turns a handler schedule's fault into a crash point: before-commit dies before the worker
// writes anything (so no ticket number is used up, as those schedules expect); after-commit dies after all
// its work, before it answers.
func crashForFault(fault handler.Fault) *scheduler.CrashPoint {
	switch fault {
	case handler.BeforeCommit:
		return &scheduler.CrashPoint{When: "before-write"}
	case handler.AfterCommit:
		return &scheduler.CrashPoint{When: "before-answering"}
	}
	return nil
}

// playDeliveries runs each delivery of a handler schedule as one worker, to its end before the next starts.
func playDeliveries(s handler.Schedule, handle func(database.Connection, handler.Webhook) (handler.Outcome, error)) (handler.Played, string, error) {
	return playDeliveriesOn(database.New(), s, handle)
}

// playDeliveriesOn is playDeliveries on db: the in-memory model, or PostgreSQL.
func playDeliveriesOn(db database.Shared, s handler.Schedule, handle func(database.Connection, handler.Webhook) (handler.Outcome, error)) (handler.Played, string, error) {
	var outcomes []handler.Outcome
	for i, delivery := range s.Deliveries {
		name := string(rune('A' + i))
		event := delivery.Event
		run, err := scheduler.RunWorkers(db, []scheduler.WorkerPlan[handler.Outcome]{{
			Name:  name,
			Run:   func(conn database.Connection) (handler.Outcome, error) { return handle(conn, event) },
			Crash: crashForFault(delivery.Fault),
		}}, scheduler.OneAtATime(), scheduler.Options[handler.Outcome]{Tell: tell})
		if err == nil && run.Endings[name].Kind == scheduler.Failed {
			err = fmt.Errorf("delivery %d (worker %s) stopped with an error: %w", i+1, name, run.Endings[name].Err)
		}
		if err != nil {
			return handler.Played{}, database.TellTrace(db.TraceLines()), err
		}
		outcome := handler.Crashed
		if run.Endings[name].Kind == scheduler.Answered {
			outcome = run.Endings[name].Value
		}
		outcomes = append(outcomes, outcome)
	}
	committed := db.Committed()
	return handler.Played{Outcomes: outcomes, DB: handler.Database{Tickets: committed.Tickets, Receipts: committed.Receipts}}, database.TellTrace(db.TraceLines()), nil
}
