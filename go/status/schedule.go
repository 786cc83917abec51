package status

import (
	"fmt"

	"workbook/handler"
	"workbook/schedules"
)

// Delivery is one step of a status schedule: a change arrives, and the worker applying it may die.
type Delivery struct {
	Change Change        `json:"change"`
	Fault  handler.Fault `json:"fault"`
}

// Expectation is what one way of applying changes must answer to each delivery, and store at the end.
type Expectation struct {
	Answers  []Answer  `json:"answers"`
	Tickets  []Ticket  `json:"tickets"`
	Receipts []Receipt `json:"receipts"`
}

// Schedule is one file of schedules/status.
type Schedule struct {
	schedules.Named
	Title      string        `json:"title"`
	Story      string        `json:"story"`
	Start      []StartTicket `json:"start"`
	Deliveries []Delivery    `json:"deliveries"`
	Expect     struct {
		AsItArrives  Expectation `json:"as-it-arrives"`
		ReceiptsOnly Expectation `json:"receipts-only"`
		Versioned    Expectation `json:"versioned"`
	} `json:"expect"`
}

// The three columns of a status schedule, one for each way of applying changes.
const (
	AsItArrivesColumn  = "as-it-arrives"
	ReceiptsOnlyColumn = "receipts-only"
	VersionedColumn    = "versioned"
)

// Columns lists the columns in the schedules' order.
var Columns = []string{AsItArrivesColumn, ReceiptsOnlyColumn, VersionedColumn}

// Expected is the column of expectations for one way of applying changes.
func (s Schedule) Expected(column string) Expectation {
	switch column {
	case AsItArrivesColumn:
		return s.Expect.AsItArrives
	case ReceiptsOnlyColumn:
		return s.Expect.ReceiptsOnly
	}
	return s.Expect.Versioned
}

// Check holds a schedule to what its types can't say: tickets named once in start, every change about
// one of them, one answer per delivery, crashed exactly where the worker dies, and answers that fit the
// kind of change.
func (s Schedule) Check() error {
	fail := func(field, format string, args ...any) error {
		return &schedules.FieldError{Field: field, Problem: fmt.Sprintf(format, args...)}
	}
	known := map[int]bool{}
	for i, t := range s.Start {
		if known[t.ID] {
			return fail(fmt.Sprintf("start[%d].id", i), "ticket #%d is already in start", t.ID)
		}
		known[t.ID] = true
	}
	for i, d := range s.Deliveries {
		if !known[d.Change.TicketID] {
			return fail(fmt.Sprintf("deliveries[%d].change.ticketId", i), "no ticket #%d in start", d.Change.TicketID)
		}
	}
	for _, column := range Columns {
		answers := s.Expected(column).Answers
		if len(answers) != len(s.Deliveries) {
			return fail("expect."+column+".answers", "%d answers for %d deliveries", len(answers), len(s.Deliveries))
		}
		for i, answer := range answers {
			field := fmt.Sprintf("expect.%s.answers[%d]", column, i)
			d := s.Deliveries[i]
			if (answer.Kind == "crashed") != (d.Fault != handler.NoFault) {
				if d.Fault == handler.NoFault {
					return fail(field, "the worker lives, so it answers")
				}
				return fail(field, "the worker dies (%s): crashed", d.Fault)
			}
			if answer.Kind == "commented" && d.Change.Kind != "add-comment" {
				return fail(field, `a status change is never answered "commented"`)
			}
			if (answer.Kind == "set" || answer.Kind == "stale") && d.Change.Kind != "set-status" {
				return fail(field, "a comment is never answered %q", answer.Kind)
			}
		}
	}
	return nil
}

// LoadSchedules reads every file of schedules/status.
func LoadSchedules() ([]Schedule, error) {
	return schedules.Load[Schedule]("status")
}
