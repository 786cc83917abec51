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
	return "answers " + saidAnswer(answerOf(scheduler.Ending[handler.Outcome]{Kind: scheduler.Answered, Value: o}, ""))
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

// errorWords say a database error as harness/race/play.ts says it.
var errorWords = map[ErrorCode]string{
	"unique-violation":    "a unique violation",
	"transaction-aborted": "TransactionAborted (a call after an error, before the rollback)",
	"deadlock":            "a deadlock",
	"misuse":              "a misuse of the database",
	"other":               "an error",
}

func saidAnswer(a Answer) string {
	switch {
	case a.Kind == "failed":
		return "failed with " + errorWords[a.Error]
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
	lines    []database.TraceLine
	leftOpen *scheduler.LeftOpen // a worker came back with its transaction still open
}

func play(s Schedule, impl implementation) played {
	return playOn(database.New(), s, impl)
}

// playOn plays a schedule on db: the in-memory model, or PostgreSQL.
func playOn(db database.Shared, s Schedule, impl implementation) played {
	run, err := scheduler.RunWorkers(db, plans(s.Workers, impl.handle), scheduler.InTurn(s.Interleaving...), scheduler.Options[handler.Outcome]{Tell: tell})
	if err != nil {
		var open *scheduler.LeftOpen
		errors.As(err, &open)
		return played{problems: err.Error(), trace: database.TellTrace(db.TraceLines()), leftOpen: open}
	}
	var answers []Answer
	for _, w := range s.Workers {
		answers = append(answers, answerOf(run.Endings[w.Name], w.Name))
	}
	return played{answers: answers, db: db.Committed(), trace: database.TellTrace(db.TraceLines()), lines: db.TraceLines()}
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

// judge returns "" when the run left what the schedule's column expects; otherwise the story
// harness/race/play.ts's judgeRace tells, in its words: the schedule and its workers, the first worker whose
// answer differs and the step it ended at (or what is wrong with the rows), the run step by step, and the
// rows after it side by side.
func judge(s Schedule, column string, got played) string {
	heading := raceHeading(s)
	if got.leftOpen != nil {
		return fmt.Sprintf("%s\n%s\n\nWhat happened, step by step:\n%s\n\nAfter the run:\n%s", heading, got.leftOpen, got.trace, stateTable(s.Expected(column), got.leftOpen.Committed))
	}
	if got.problems != "" {
		return fmt.Sprintf("%s\nthe run could not go on: %s\n\nWhat happened, step by step:\n%s", heading, got.problems, got.trace)
	}
	want := s.Expected(column)
	story := fmt.Sprintf("\n\nWhat happened, step by step:\n%s\n\nAfter the run:\n%s", got.trace, stateTable(want, got.db))
	for i, expected := range want.Answers {
		var actual *Answer
		if i < len(got.answers) {
			actual = &got.answers[i]
		}
		if actual != nil && *actual == expected {
			continue
		}
		said := "returned nothing"
		if actual != nil {
			said = saidAnswer(*actual)
		}
		ended, _ := stepOf(got.lines, func(line database.TraceLine) bool {
			return line.Worker == expected.Worker && strings.HasPrefix(line.Text, expected.Worker+" ") &&
				(strings.Contains(line.Text, "answers") || strings.Contains(line.Text, "stops with") || strings.Contains(line.Text, "crashes"))
		})
		return fmt.Sprintf("%s\nWorker %s: expected %s, your code %s; it ended at %s.%s", heading, expected.Worker, saidAnswer(expected), said, ended, story)
	}
	var problems []string
	wantIDs, gotIDs := ticketIDs(want.Tickets), ticketIDs(got.db.Tickets)
	for _, id := range gotIDs {
		if !slices.Contains(wantIDs, id) {
			saved := stepWhere(got.lines, func(line database.TraceLine) bool {
				return strings.Contains(line.Text, fmt.Sprintf("saves ticket #%d ", id))
			})
			problems = append(problems, fmt.Sprintf("ticket #%d should not be there: it was saved at %s, and never rolled back.", id, saved))
		}
	}
	for _, id := range wantIDs {
		if !slices.Contains(gotIDs, id) {
			problems = append(problems, fmt.Sprintf("ticket #%d is missing.", id))
		}
	}
	if len(problems) == 0 && !slices.Equal(saidTickets(want.Tickets), saidTickets(got.db.Tickets)) {
		problems = append(problems, "the tickets differ.")
	}
	if !slices.Equal(saidReceipts(want.Receipts), saidReceipts(got.db.Receipts)) {
		problems = append(problems, "the receipts differ.")
	}
	if len(problems) == 0 {
		return ""
	}
	return fmt.Sprintf("%s\nEvery worker answered as expected, but after the run %s%s", heading, strings.Join(problems, " "), story)
}

// raceHeading names the schedule and its workers, each event as briefly as tells them apart.
func raceHeading(s Schedule) string {
	var events []handler.Webhook
	for _, w := range s.Workers {
		events = append(events, w.Event)
	}
	said := handler.Briefly(events)
	var workers []string
	for _, w := range s.Workers {
		line := fmt.Sprintf("%s: %s %q", w.Name, said(w.Event), w.Event.Subject)
		if w.CrashAfter != "" {
			line += ", crashes after " + string(w.CrashAfter)
		}
		workers = append(workers, line)
	}
	return fmt.Sprintf("Schedule %q (%s): %s\nWorkers: %s.", s.Name, s.Title, s.Story, strings.Join(workers, "; "))
}

// stateTable is the rows the schedule expects beside those the run left.
func stateTable(want Expectation, got database.Contents) string {
	return schedules.SideBySide([]schedules.Row{
		{Label: "tickets", Expected: saidTickets(want.Tickets), Actual: saidTickets(got.Tickets)},
		{Label: "receipts", Expected: saidReceipts(want.Receipts), Actual: saidReceipts(got.Receipts)},
	})
}

// stepWhere names the first step of the trace whose line matches: "step 3 (B saves ticket #2 …)".
func stepWhere(trace []database.TraceLine, matches func(database.TraceLine) bool) string {
	step, text := stepOf(trace, matches)
	if text == "" {
		return step
	}
	return fmt.Sprintf("%s (%s)", step, text)
}

// stepOf is the first step that matches, and its line ("no step" and no line when none does). A worker's
// verdict names the step alone, as TypeScript's does: the trace printed under it tells that step.
func stepOf(trace []database.TraceLine, matches func(database.TraceLine) bool) (string, string) {
	for _, line := range trace {
		if matches(line) {
			if line.Step == 0 {
				return "step start", line.Text
			}
			return fmt.Sprintf("step %d", line.Step), line.Text
		}
	}
	return "no step", ""
}

func ticketIDs(tickets []handler.Ticket) []int {
	var ids []int
	for _, t := range tickets {
		ids = append(ids, t.ID)
	}
	return ids
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
		if open := (*scheduler.LeftOpen)(nil); errors.As(err, &open) {
			err = fmt.Errorf("%s of schedule %q (worker %s):\n%w", handler.DescribeDelivery(s.Deliveries, i), s.Name, name, err)
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
