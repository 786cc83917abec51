// Package handler is the room of schedules/handler: the loader, the player, the judge and its words, and
// the reference rules later exercises build on (SameEvent, Replay). The model it plays (Webhook, Receipt,
// Outcome, …) is go/core's, named here too so the other rooms can keep saying handler.Webhook. The
// learner's handlers are in go/exercises/01-first-handler and 02-same-event; their solutions in
// go/solutions/ beside them.
package handler

import "workbook/core"

// The lesson's model, from go/core.
type (
	Webhook     = core.Webhook
	Ticket      = core.Ticket
	Receipt     = core.Receipt
	Database    = core.Database
	Fault       = core.Fault
	OutcomeKind = core.OutcomeKind
	Outcome     = core.Outcome
)

// The faults a delivery can name.
const (
	NoFault      = core.NoFault
	BeforeCommit = core.BeforeCommit
	AfterCommit  = core.AfterCommit
)

// Crashed is what the sender sees from a worker that died: no answer at all.
var Crashed = core.Crashed

// Handler is a handler as the schedules play it: one delivery at a time, and a look at what it stored.
type Handler interface {
	Handle(event Webhook, fault Fault) Outcome
	Snapshot() Database
}

// copyDatabase copies both slices, so a Snapshot can't be used to change the store.
func copyDatabase(db Database) Database { return core.CopyDatabase(db) }
