// Package core is the lesson's model, the words every exercise shares: a Webhook and its delivery's Fault,
// the Ticket and the Receipt a handler saves, the Outcome a sender gets back, and a Database of both.
//
// A Go learner's exercise imports it with a dot, so the lesson's Go reads as it is written there:
//
//	import . "workbook/core"
//
//	func Replay(receipt Receipt, event Webhook) Outcome {
//		if receipt.Event.Subject != event.Subject {
//			return Outcome{"conflict", 0}
//		}
//		return Outcome{"replayed", receipt.TicketID}
//	}
//
// It holds types and plain copies only, no rule a learner writes (SameEvent, Replay): those are the
// exercises', and the harness keeps its own reference copies in the rooms that need them (go/handler).
// Todo is what an exercise's stub panics with until the learner writes it.
package core

// Webhook is one delivery of a support-ticket webhook: who sent it, which event it is, what it says.
type Webhook struct {
	Tenant  string `json:"tenant"`
	Source  string `json:"source"`
	EventID string `json:"eventId"`
	Subject string `json:"subject"`
}

// Event is the name a Receipt gives the Webhook it embeds: receipt.Event is the whole event.
type Event = Webhook

// Ticket is what a handler saves for a customer's problem.
type Ticket struct {
	ID      int    `json:"id"`
	Tenant  string `json:"tenant"`
	Subject string `json:"subject"`
}

// Receipt remembers that an event was handled and which ticket it made. It embeds the whole Webhook as
// Event, so Replay can tell a retry (receipt.Event.Subject the same) from a different request under the
// same key. In JSON it is one flat object: the event's fields and ticketId.
type Receipt struct {
	Event
	TicketID int `json:"ticketId"`
}

// Database is the help desk's store: the tickets, and the receipts of the events that made them.
type Database struct {
	Tickets  []Ticket  `json:"tickets"`
	Receipts []Receipt `json:"receipts"`
}

// Fault is where the worker handling a delivery dies, if it does.
type Fault string

// The three places a worker can be: alive, dead before its commit, or dead after the commit but before
// it answers the sender (the lost acknowledgment).
const (
	NoFault      Fault = "none"
	BeforeCommit Fault = "before-commit"
	AfterCommit  Fault = "after-commit"
)

// Values lists the faults a schedule may name.
func (Fault) Values() []string { return []string{"none", "before-commit", "after-commit"} }

// OutcomeKind is what a delivery got back.
type OutcomeKind string

// Values lists the outcome kinds a schedule may name.
func (OutcomeKind) Values() []string { return []string{"created", "crashed", "replayed", "conflict"} }

// Outcome is a handler's answer to one delivery. TicketID is 0 when there is no ticket to name (a crash,
// a conflict); the schedules write that as null.
type Outcome struct {
	Kind     OutcomeKind `json:"kind"`
	TicketID int         `json:"ticketId" schedule:"nullable"`
}

// Crashed is what the sender sees from a worker that died: no answer at all.
var Crashed = Outcome{"crashed", 0}

// CopyDatabase copies both slices, so a Snapshot can't be used to change the store.
func CopyDatabase(db Database) Database {
	return Database{
		Tickets:  append([]Ticket{}, db.Tickets...),
		Receipts: append([]Receipt{}, db.Receipts...),
	}
}
