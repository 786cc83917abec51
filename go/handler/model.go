// Package handler holds the Go solutions of exercises 01 and 02: a ticket handler that creates a ticket
// for every delivery, and one that keeps a receipt in the same commit as the ticket. They play the same
// schedules/handler/*.json files as the TypeScript solutions.
package handler

// Webhook is one delivery of a support-ticket webhook: who sent it, which event it is, what it says.
type Webhook struct {
	Tenant  string `json:"tenant"`
	Source  string `json:"source"`
	EventID string `json:"eventId"`
	Subject string `json:"subject"`
}

// Ticket is what a handler saves for a customer's problem.
type Ticket struct {
	ID      int    `json:"id"`
	Tenant  string `json:"tenant"`
	Subject string `json:"subject"`
}

// Receipt remembers that an event was handled and which ticket it made. It embeds the whole Webhook, so
// Replay can tell a retry (same subject) from a different request under the same key.
type Receipt struct {
	Webhook
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

// Handler is a handler as the schedules play it: one delivery at a time, and a look at what it stored.
type Handler interface {
	Handle(event Webhook, fault Fault) Outcome
	Snapshot() Database
}

// copyDatabase copies both slices, so a Snapshot can't be used to change the store.
func copyDatabase(db Database) Database {
	return Database{
		Tickets:  append([]Ticket{}, db.Tickets...),
		Receipts: append([]Receipt{}, db.Receipts...),
	}
}
