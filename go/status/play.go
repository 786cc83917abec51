package status

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"workbook/core"
	"workbook/schedules"
)

// Played is what a way of applying changes did with a schedule: its answers, and its store at the end.
// Panicked says where and why the rules panicked, if they did; the deliveries after that one were not sent.
type Played struct {
	Answers  []Answer
	Store    Store
	Panicked string
}

// Play delivers a schedule's changes one at a time to a handler with the given rules. A panic in the rules
// stops the schedule there and is told as the schedule's failure, not as a crash of the whole test run;
// a stub's "is not written yet" goes on as it was.
func Play(s Schedule, rules Rules) (played Played) {
	h := NewHandler(rules, s.Start)
	for i, d := range s.Deliveries {
		if played.Panicked = handled(h, d, &played.Answers); played.Panicked != "" {
			played.Panicked = fmt.Sprintf("%s: your code panicked: %s", describeDelivery(s, i), played.Panicked)
			break
		}
	}
	played.Store = h.Snapshot()
	return played
}

// learnerLine is " (at go/exercises/07-close-and-reopen/status.go:12)": the learner's line nearest the panic,
// read from the stack while it is still unwound to there; "" when no frame is in go/exercises/.
func learnerLine() string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		frame, more := frames.Next()
		// go/exercises/… on disk, workbook/exercises/… built with -trimpath.
		if at := strings.LastIndex(frame.File, "exercises/"); at > 0 && frame.File[at-1] == '/' {
			return fmt.Sprintf(" (at go/%s:%d)", frame.File[at:], frame.Line)
		}
		if !more {
			return ""
		}
	}
}

// handled hands one delivery to the handler and appends its answer; it returns the panic's value in words,
// or "" when there was none.
func handled(h *Handler, d Delivery, answers *[]Answer) (panicked string) {
	defer func() {
		if p := recover(); p != nil {
			if _, stub := p.(core.NotWrittenYet); stub {
				panic(p)
			}
			panicked = fmt.Sprint(p) + learnerLine()
		}
	}()
	*answers = append(*answers, h.Handle(d.Change, d.Fault))
	return ""
}

// saidChange: "chg-3: close #1, decided on version 1" or `chg-1: comment on #1 "Is there any news?"`.
func saidChange(c Change) string {
	if c.Kind == "add-comment" {
		return fmt.Sprintf("%s: comment on #%d %q", c.ChangeID, c.TicketID, c.Text)
	}
	verb := "reopen"
	if c.Status == "closed" {
		verb = "close"
	}
	return fmt.Sprintf("%s: %s #%d, decided on version %d", c.ChangeID, verb, c.TicketID, c.DecidedOn)
}

func saidAnswer(a Answer) string {
	switch a.Kind {
	case "set":
		return fmt.Sprintf("set: %s at version %d", a.Status, a.Version)
	case "stale":
		return fmt.Sprintf("refused as stale: the ticket is at version %d", a.Version)
	case "commented":
		return fmt.Sprintf("commented: comment %d", a.Comment)
	case "crashed":
		return "crashed (no answer)"
	}
	return fmt.Sprintf("answered %+v", a)
}

func saidTickets(tickets []Ticket) []string {
	var lines []string
	for _, t := range tickets {
		madeBy := ""
		if t.LastChange != "" {
			madeBy = " (made by " + t.LastChange + ")"
		}
		lines = append(lines, fmt.Sprintf("#%d %s, version %d%s", t.ID, t.Status, t.Version, madeBy))
		for i, text := range t.Comments {
			lines = append(lines, fmt.Sprintf("  comment %d: %s", i+1, text))
		}
	}
	return lines
}

func saidReceipts(receipts []Receipt) []string {
	var lines []string
	for _, r := range receipts {
		lines = append(lines, r.ChangeID+" → "+saidAnswer(r.Answer))
	}
	return lines
}

// describeDelivery: "delivery 2 (chg-1: close #1, decided on version 1, again, after a lost acknowledgment)".
func describeDelivery(s Schedule, index int) string {
	d := s.Deliveries[index]
	notes := []string{saidChange(d.Change)}
	var last *Delivery
	for i := range s.Deliveries[:index] {
		if s.Deliveries[i].Change.ChangeID == d.Change.ChangeID {
			last = &s.Deliveries[i]
		}
	}
	if last != nil {
		notes = append(notes, "again")
		switch last.Fault {
		case "after-commit":
			notes = append(notes, "after a lost acknowledgment")
		case "before-commit":
			notes = append(notes, "after a crash before the commit")
		}
	}
	switch d.Fault {
	case "before-commit":
		notes = append(notes, "the worker dies before its commit")
	case "after-commit":
		notes = append(notes, "the worker dies after its commit, before answering")
	}
	return fmt.Sprintf("delivery %d (%s)", index+1, strings.Join(notes, ", "))
}

// Judge returns "" when the rules did what the schedule's column expects, and otherwise the schedule, the
// first delivery whose answer differs (or what differs in the store), and both stores side by side.
func Judge(s Schedule, column string, got Played) string {
	want := s.Expected(column)
	heading := fmt.Sprintf("Schedule %q (%s): %s", s.Name, s.Title, s.Story) // as harness/status words it
	answered := func(answers []Answer) []string {
		var lines []string
		for i, a := range answers {
			lines = append(lines, fmt.Sprintf("%d: %s", i+1, saidAnswer(a)))
		}
		return lines
	}
	rows := []schedules.Row{
		{Label: "answers", Expected: answered(want.Answers), Actual: answered(got.Answers)},
		{Label: "tickets", Expected: saidTickets(want.Tickets), Actual: saidTickets(got.Store.Tickets)},
		{Label: "receipts", Expected: saidReceipts(want.Receipts), Actual: saidReceipts(got.Store.Receipts)},
	}
	state := schedules.SideBySide(rows)
	if got.Panicked != "" {
		return fmt.Sprintf("%s\n%s.\n\nDelivery by delivery, and what was stored before it:\n%s", heading, got.Panicked, state)
	}
	for i := range want.Answers {
		if i >= len(got.Answers) {
			return fmt.Sprintf("%s\nexpected %d answers, the code gave %d\n\n%s", heading, len(want.Answers), len(got.Answers), state)
		}
		if want.Answers[i] != got.Answers[i] {
			usually := ""
			if cause := usualCause(s, i, want.Answers[i], got.Answers[i]); cause != "" {
				usually = "\nWhat this usually means: " + cause + "\n"
			}
			return fmt.Sprintf("%s\n%s: expected %s, your code %s.\n%s\nDelivery by delivery, and what was stored after the last:\n%s",
				heading, describeDelivery(s, i), saidAnswer(want.Answers[i]), saidAnswer(got.Answers[i]), usually, state)
		}
	}
	var differ []string
	for _, row := range rows[1:] {
		if !slices.Equal(row.Expected, row.Actual) {
			differ = append(differ, row.Label)
		}
	}
	if len(differ) == 0 {
		return ""
	}
	return fmt.Sprintf("%s\nEvery answer was right, but after the last delivery the %s differ:\n\n%s", heading, strings.Join(differ, " and "), state)
}

// usualCause is the usual mistake behind a wrong answer, in the lesson's words, as harness/status/play.ts's
// usualCause says it; "" when there is no usual one.
func usualCause(s Schedule, at int, want, got Answer) string {
	d := s.Deliveries[at]
	again := false
	for _, earlier := range s.Deliveries[:at] {
		again = again || earlier.Change.ChangeID == d.Change.ChangeID
	}
	switch {
	case want.Kind == "crashed":
		return fmt.Sprintf("the worker dies at this delivery (fault '%s'), so nobody hears an answer.", d.Fault)
	case want.Kind == "stale" && got.Kind == "set":
		return fmt.Sprintf("this change was decided on version %d, and the ticket has moved on to version %d since: someone else changed it. Applying it undoes their change. A change decided on an older version is refused as stale, and the sender hears the version to decide on again.", d.Change.DecidedOn, want.Version)
	case want.Kind == "set" && got.Kind == "stale" && again:
		return fmt.Sprintf("this is the same change again (%s), a retry, not a stale change. It still says the version it was decided on, but it is the change that made the ticket's current version: the ticket remembers that change's id (LastChange), and a retry of it gets the same answer as the first time.", d.Change.ChangeID)
	case want.Kind == "set" && got.Kind == "stale":
		return "this change was decided on the version the ticket is at, so nothing has changed since: apply it. Only an older version is stale (DecidedOn < Version, not <=)."
	case want.Kind == "commented" && got.Kind == "commented":
		return commentCause(s, at, want.Comment, got.Comment, again)
	case want.Kind == "set" && got.Kind == "set" && want.Version != got.Version:
		return "the version moves by one when the status changes, and only then: setting the status the ticket already has changes nothing, and a comment never moves it."
	}
	return ""
}

// commentCause is the usual mistake behind a comment numbered another way, told from what the contract had
// stored before this delivery; "" when there is no usual one.
func commentCause(s Schedule, at int, wanted, got int, again bool) string {
	change := s.Deliveries[at].Change
	if change.Kind != "add-comment" {
		return ""
	}
	c := NewContract(s.Start)
	for _, d := range s.Deliveries[:at] {
		c.Deliver(d.Change, d.Fault)
	}
	var onTicket []string
	onEvery := 0
	for _, t := range c.Store().Tickets {
		onEvery += len(t.Comments)
		if t.ID == change.TicketID {
			onTicket = t.Comments
		}
	}
	here := fmt.Sprintf("#%d", change.TicketID)
	switch {
	case again && got == len(onTicket) && got != wanted:
		return fmt.Sprintf("this is %s again, and its first delivery went in as comment %d on %s. Your code answered %d, the count of comments on %s now: a repeat gets the answer its first delivery got, kept in its receipt, not the count after later comments.", change.ChangeID, wanted, here, got, here)
	case again && got > wanted:
		return "the comment went in again. Adding a comment is not idempotent: keep a receipt by the change's id, in the same commit as the comment, and answer a repeat from it."
	case !again && got < wanted && slices.Contains(onTicket, change.Text):
		return fmt.Sprintf("%s is a new change that says the same words as an earlier comment on %s (%q), and your code took it for that comment. A comment is told apart by its change's id, not its text: two people may both write %q. It is comment %d.", change.ChangeID, here, change.Text, change.Text, wanted)
	case !again && got == onEvery+1 && got != wanted:
		return fmt.Sprintf("comments are numbered per ticket: this is comment %d on %s. Your code answered %d, counting the comments on every ticket (%d before it).", wanted, here, got, onEvery)
	}
	return ""
}

// String is the change in the words the stories use: "chg-3: close #1, decided on version 1".
func (c Change) String() string { return saidChange(c) }

// String is the answer in the words the stories use: "refused as stale: the ticket is at version 2".
func (a Answer) String() string { return saidAnswer(a) }
