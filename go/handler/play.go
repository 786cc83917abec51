package handler

import (
	"fmt"
	"slices"
	"strings"

	"workbook/schedules"
)

// Played is what a handler did with a schedule: its answers, and its store after the last delivery.
type Played struct {
	Outcomes []Outcome
	DB       Database
}

// Play delivers a schedule's events to a handler, one at a time.
func Play(s Schedule, h Handler) Played {
	var outcomes []Outcome
	for _, delivery := range s.Deliveries {
		outcomes = append(outcomes, h.Handle(delivery.Event, delivery.Fault))
	}
	return Played{outcomes, h.Snapshot()}
}

// earlierDeliveries lists the deliveries before this one that are the same event.
func earlierDeliveries(deliveries []Delivery, index int) []Delivery {
	var earlier []Delivery
	for _, d := range deliveries[:index] {
		if SameEvent(d.Event, deliveries[index].Event) {
			earlier = append(earlier, d)
		}
	}
	return earlier
}

// DescribeDelivery says which delivery this is in the lesson's words:
// "delivery 2 (acme/helpdesk/evt-42 again, after a lost acknowledgment)". The outbox tells its
// deliveries this way too.
func DescribeDelivery(deliveries []Delivery, index int) string {
	delivery := deliveries[index]
	earlier := earlierDeliveries(deliveries, index)
	notes := []string{SaidIdentity(delivery.Event)}
	if len(earlier) > 0 {
		notes[0] += " again"
		switch earlier[len(earlier)-1].Fault {
		case AfterCommit:
			notes = append(notes, "after a lost acknowledgment")
		case BeforeCommit:
			notes = append(notes, "after a crash before the commit")
		}
		if earlier[0].Event.Subject != delivery.Event.Subject {
			notes = append(notes, fmt.Sprintf("now saying %q", delivery.Event.Subject))
		}
	}
	switch delivery.Fault {
	case BeforeCommit:
		notes = append(notes, "the worker dies before its commit")
	case AfterCommit:
		notes = append(notes, "the worker dies after its commit, before answering")
	}
	return fmt.Sprintf("delivery %d (%s)", index+1, strings.Join(notes, ", "))
}

// usualCause is the usual mistake behind a wrong answer, in the lesson's words, as the TypeScript player
// says it; "" when there is no usual one.
func usualCause(s Schedule, at int, wanted, got Outcome, column string, stored Database) string {
	first := column == CreateEveryTime
	earlier := earlierDeliveries(s.Deliveries, at)
	beforeCommit := func(d Delivery) bool { return d.Fault == BeforeCommit }
	// A replay is blamed on a crash before the commit only when no earlier delivery of this event committed.
	noneCommitted := len(earlier) > 0 && !slices.ContainsFunc(earlier, func(d Delivery) bool { return !beforeCommit(d) })
	// A number past the one expected, after a crash before the commit, with more tickets stored than expected:
	// the crashed delivery's ticket stayed.
	keptTicket := slices.ContainsFunc(s.Deliveries[:at], beforeCommit) && got.TicketID > wanted.TicketID &&
		len(stored.Tickets) > len(s.Expected(column).Tickets)
	leftBehind, repeat := "no ticket and no receipt", "; a repeat gets the ticket its receipt names"
	if first {
		leftBehind, repeat = "no ticket", ""
	}
	kept := "your handler kept something from a delivery whose worker died before its commit. A crash before the commit must leave nothing behind: " + leftBehind + "."
	switch {
	case wanted.Kind == "crashed" && got.Kind != "crashed":
		return fmt.Sprintf("the worker dies at this delivery (fault '%s'), so nobody hears an answer: return Crashed.", s.Deliveries[at].Fault)
	case wanted.Kind == "created" && got.Kind == "replayed" && len(earlier) == 0:
		return "this is a new event, taken for one your handler had seen. The identity is tenant, source and event id, all three, compared one by one."
	case wanted.Kind == "created" && got.Kind == "replayed" && noneCommitted:
		return kept
	case wanted.Kind == "replayed" && got.Kind == "created":
		return "your handler did not recognise a delivery it had already handled. Is the receipt saved in the same commit as the ticket, and found again with SameEvent?"
	case wanted.Kind == "conflict" && got.Kind != "conflict":
		return "the same key now carries another subject. That is another request, not a retry: refuse it as a conflict rather than answer with a ticket made for something else."
	case wanted.Kind == got.Kind && keptTicket:
		return kept
	case wanted.Kind == got.Kind && wanted.TicketID != got.TicketID:
		return "the right kind of answer with the wrong ticket. Ticket ids count every ticket saved, from 1, including one saved just before a crash" + repeat + "."
	}
	return ""
}

// saidAnswers numbers each answer as the delivery it answers: "1: created #1".
func saidAnswers(outcomes []Outcome) []string {
	said := make([]string, len(outcomes))
	for i, outcome := range outcomes {
		said[i] = fmt.Sprintf("%d: %s", i+1, saidOutcome(outcome))
	}
	return said
}

func saidOutcome(outcome Outcome) string {
	switch {
	case outcome.Kind == "created" || outcome.Kind == "replayed":
		return fmt.Sprintf("%s #%d", outcome.Kind, outcome.TicketID)
	case outcome.TicketID != 0:
		return fmt.Sprintf("%s with ticket id %d", outcome.Kind, outcome.TicketID)
	case outcome.Kind == "conflict":
		return "refused (conflict)"
	case outcome.Kind == "crashed":
		return "crashed (no answer)"
	default:
		return fmt.Sprintf("answered %q", outcome.Kind)
	}
}

func saidTickets(tickets []Ticket) []string {
	var lines []string
	for _, ticket := range tickets {
		lines = append(lines, fmt.Sprintf("#%d %s: %s", ticket.ID, ticket.Tenant, ticket.Subject))
	}
	return lines
}

func saidReceipts(receipts []Receipt) []string {
	var lines []string
	for _, receipt := range receipts {
		lines = append(lines, fmt.Sprintf("%s %q → #%d", SaidIdentity(receipt.Event), receipt.Event.Subject, receipt.TicketID))
	}
	return lines
}

// scheduleHeading names the schedule as harness/handler/play.ts does: its story compares the two handlers,
// so the first handler (01) hears only its deliveries, in words it has met by then.
func scheduleHeading(s Schedule, handler string) string {
	story := s.Story
	if handler == CreateEveryTime {
		var said []string
		for i := range s.Deliveries {
			said = append(said, DescribeDelivery(s.Deliveries, i))
		}
		story = strings.Join(said, "; ") + "."
	}
	return fmt.Sprintf("Schedule %q (%s): %s", s.Name, s.Title, story)
}

// Judge returns "" when the handler did what the schedule's column expects, and otherwise the story of
// where it went another way: the schedule, the delivery, what was expected, what the handler did.
func Judge(s Schedule, handler string, got Played) string {
	want := s.Expected(handler)
	heading := scheduleHeading(s, handler)
	// Every answer next to the one expected, then what was stored: the first ≠ is where to look. No receipts
	// expected and none kept: a handler that has not met receipts yet (01) sees no row for them.
	rows := []schedules.Row{
		{Label: "answers", Expected: saidAnswers(want.Outcomes), Actual: saidAnswers(got.Outcomes)},
		{Label: "tickets", Expected: saidTickets(want.Tickets), Actual: saidTickets(got.DB.Tickets)},
	}
	if len(want.Receipts) > 0 || len(got.DB.Receipts) > 0 {
		rows = append(rows, schedules.Row{Label: "receipts", Expected: saidReceipts(want.Receipts), Actual: saidReceipts(got.DB.Receipts)})
	}
	state := schedules.SideBySide(rows)
	for i := range max(len(want.Outcomes), len(got.Outcomes)) {
		if i < len(want.Outcomes) && i < len(got.Outcomes) && want.Outcomes[i] == got.Outcomes[i] {
			continue
		}
		if i >= len(s.Deliveries) || i >= len(got.Outcomes) {
			return fmt.Sprintf("%s\nexpected %d answers, your handler gave %d\n\nDelivery by delivery, and what was stored after the last:\n%s",
				heading, len(want.Outcomes), len(got.Outcomes), state)
		}
		usually := ""
		if cause := usualCause(s, i, want.Outcomes[i], got.Outcomes[i], handler, got.DB); cause != "" {
			usually = "\nWhat this usually means: " + cause + "\n"
		}
		return fmt.Sprintf("%s\n%s: expected %s, your handler %s.\n%s\nDelivery by delivery, and what was stored after the last:\n%s",
			heading, DescribeDelivery(s.Deliveries, i), saidOutcome(want.Outcomes[i]), saidOutcome(got.Outcomes[i]), usually, state)
	}
	var differ []string
	if !slices.Equal(saidTickets(want.Tickets), saidTickets(got.DB.Tickets)) {
		differ = append(differ, "tickets")
	}
	if !slices.Equal(saidReceipts(want.Receipts), saidReceipts(got.DB.Receipts)) {
		differ = append(differ, "receipts")
	}
	if len(differ) == 0 {
		return ""
	}
	return fmt.Sprintf("%s\nEvery answer was right, but after the last delivery the %s differ:\n\n%s",
		heading, strings.Join(differ, " and "), state)
}
