package race

import (
	"fmt"
	"slices"

	"workbook/handler"
	"workbook/schedules"
)

// Operation names a database operation a worker can crash after.
type Operation string

// Values lists the operations a schedule may crash a worker after.
func (Operation) Values() []string {
	return []string{"find-receipt", "save-ticket", "save-receipt", "commit", "rollback"}
}

// Worker is one worker of a race schedule: its one-letter name, its event, and where it dies, if it does.
type Worker struct {
	Name       string          `json:"name"`
	Event      handler.Webhook `json:"event"`
	CrashAfter Operation       `json:"crashAfter,omitempty"`
}

// AnswerKind is how a worker's run ended: an outcome, a crash, or a failure with a database error.
type AnswerKind string

// Values lists the answer kinds a schedule may name.
func (AnswerKind) Values() []string {
	return []string{"created", "replayed", "conflict", "crashed", "failed"}
}

// ErrorCode is the database error a failed worker stopped with, or "other".
type ErrorCode string

// Values lists the error codes a schedule may name.
func (ErrorCode) Values() []string {
	return []string{"unique-violation", "transaction-aborted", "deadlock", "misuse", "other"}
}

// Answer is what one worker answered.
type Answer struct {
	Worker   string     `json:"worker"`
	Kind     AnswerKind `json:"kind"`
	TicketID int        `json:"ticketId" schedule:"nullable"`
	Error    ErrorCode  `json:"error,omitempty"`
}

// Expectation is what one implementation must leave: each worker's answer, and the committed rows.
type Expectation struct {
	Answers  []Answer          `json:"answers"`
	Tickets  []handler.Ticket  `json:"tickets"`
	Receipts []handler.Receipt `json:"receipts"`
}

// Schedule is one file of schedules/race: workers, the order their operations run in, and what Separate
// and Atomic must leave.
type Schedule struct {
	schedules.Named
	Title        string   `json:"title"`
	Story        string   `json:"story"`
	Workers      []Worker `json:"workers"`
	Interleaving []string `json:"interleaving"`
	Expect       struct {
		Separate Expectation `json:"separate"`
		Atomic   Expectation `json:"atomic"`
	} `json:"expect"`
}

// The two columns of a race schedule.
const (
	SeparateColumn = "separate"
	AtomicColumn   = "atomic"
)

// Expected is the column of expectations for one implementation.
func (s Schedule) Expected(column string) Expectation {
	if column == AtomicColumn {
		return s.Expect.Atomic
	}
	return s.Expect.Separate
}

// Check holds a schedule to what its types can't say: distinct workers, an interleaving that names only
// them, and one answer per worker, in order, with a ticket id exactly where the answer names a ticket.
func (s Schedule) Check() error {
	var names []string
	for i, w := range s.Workers {
		if slices.Contains(names, w.Name) {
			return &schedules.FieldError{Field: fmt.Sprintf("workers[%d].name", i), Problem: fmt.Sprintf("two workers are called %s", w.Name)}
		}
		names = append(names, w.Name)
	}
	for i, name := range s.Interleaving {
		if !slices.Contains(names, name) {
			return &schedules.FieldError{Field: fmt.Sprintf("interleaving[%d]", i), Problem: fmt.Sprintf("%s is not one of the workers (%v)", name, names)}
		}
	}
	for _, column := range []string{SeparateColumn, AtomicColumn} {
		answers := s.Expected(column).Answers
		field := "expect." + column + ".answers"
		if len(answers) != len(s.Workers) {
			return &schedules.FieldError{Field: field, Problem: fmt.Sprintf("%d answers for %d workers", len(answers), len(s.Workers))}
		}
		for i, a := range answers {
			at := fmt.Sprintf("%s[%d]", field, i)
			if a.Worker != s.Workers[i].Name {
				return &schedules.FieldError{Field: at + ".worker", Problem: fmt.Sprintf("answers go in the order of the workers: expected %s here", s.Workers[i].Name)}
			}
			needsTicket := a.Kind == "created" || a.Kind == "replayed"
			if needsTicket != (a.TicketID != 0) {
				should := "must have ticketId null"
				if needsTicket {
					should = "needs a ticketId"
				}
				return &schedules.FieldError{Field: at + ".ticketId", Problem: fmt.Sprintf("a %s answer %s", a.Kind, should)}
			}
			if (a.Kind == "failed") != (a.Error != "") {
				return &schedules.FieldError{Field: at + ".error", Problem: "a failed answer names its error, and only a failed one"}
			}
		}
		// As the TypeScript loader has it: tickets are listed by id, each after a smaller one.
		tickets := s.Expected(column).Tickets
		for i := 1; i < len(tickets); i++ {
			if tickets[i-1].ID >= tickets[i].ID {
				return &schedules.FieldError{Field: fmt.Sprintf("expect.%s.tickets[%d].id", column, i), Problem: fmt.Sprintf("tickets are listed by id, and #%d comes after #%d", tickets[i].ID, tickets[i-1].ID)}
			}
		}
	}
	return nil
}

// LoadSchedules reads every file of schedules/race.
func LoadSchedules() ([]Schedule, error) {
	return schedules.Load[Schedule]("race")
}
