package status

import (
	"fmt"
	"slices"
	"strings"

	"workbook/schedules"
)

// Played is what a way of applying changes did with a schedule: its answers, and its store at the end.
type Played struct {
	Answers []Answer
	Store   Store
}

// Play delivers a schedule's changes one at a time to a handler with the given rules.
func Play(s Schedule, rules Rules) Played {
	h := NewHandler(rules, s.Start)
	var answers []Answer
	for _, d := range s.Deliveries {
		answers = append(answers, h.Handle(d.Change, d.Fault))
	}
	return Played{answers, h.Snapshot()}
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
	heading := fmt.Sprintf("Schedule %q (%s, %s): %s", s.Name, s.Title, s.File, s.Story)
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
	for i := range want.Answers {
		if i >= len(got.Answers) {
			return fmt.Sprintf("%s\nexpected %d answers, the code gave %d\n\n%s", heading, len(want.Answers), len(got.Answers), state)
		}
		if want.Answers[i] != got.Answers[i] {
			usually := ""
			if cause := commentCause(s, i, want.Answers[i], got.Answers[i]); cause != "" {
				usually = "\nWhat this usually means: " + cause + "\n"
			}
			return fmt.Sprintf("%s\n%s: expected %s, the code %s.\n%s\nDelivery by delivery, and what was stored after the last:\n%s",
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

// commentCause is the usual mistake behind a comment numbered another way, told from what the contract had
// stored before this delivery; "" when there is no usual one.
func commentCause(s Schedule, at int, want, got Answer) string {
	change := s.Deliveries[at].Change
	if want.Kind != "commented" || got.Kind != "commented" || change.Kind != "add-comment" {
		return ""
	}
	again := false
	c := NewContract(s.Start)
	for _, d := range s.Deliveries[:at] {
		again = again || d.Change.ChangeID == change.ChangeID
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
	case again && got.Comment == len(onTicket) && got.Comment != want.Comment:
		return fmt.Sprintf("this is %s again, and its first delivery went in as comment %d on %s. Your code answered %d, the count of comments on %s now: a repeat gets the answer its first delivery got, kept in its receipt, not the count after later comments.", change.ChangeID, want.Comment, here, got.Comment, here)
	case again && got.Comment > want.Comment:
		return "the comment went in again. Adding a comment is not idempotent: keep a receipt by the change's id, in the same commit as the comment, and answer a repeat from it."
	case !again && got.Comment < want.Comment && slices.Contains(onTicket, change.Text):
		return fmt.Sprintf("%s is a new change that says the same words as an earlier comment on %s (%q), and your code took it for that comment. A comment is told apart by its change's id, not its text. It is comment %d.", change.ChangeID, here, change.Text, want.Comment)
	case !again && got.Comment == onEvery+1 && got.Comment != want.Comment:
		return fmt.Sprintf("comments are numbered per ticket: this is comment %d on %s. Your code answered %d, counting the comments on every ticket (%d before it).", want.Comment, here, got.Comment, onEvery)
	}
	return ""
}
