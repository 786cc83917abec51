// Package status is exercise 07's harness: changes to a ticket that already exists. Setting its status needs
// no receipt but a version, so a late change decided on an older version is refused as stale; adding a
// comment needs a receipt. It loads the same schedules/status/*.json files as the TypeScript tests, plays
// them through a Handler with a learner's Rules, judges and tells them, makes up more from a seed against a
// small model of the contract, and holds the two given ways of applying changes that never check a version.
// The learner's rules are go/exercises/07-close-and-reopen (the solution in go/solutions/07-close-and-reopen).
package status

import (
	"fmt"

	"workbook/handler"
)

// Status is a ticket's status.
type Status string

// Values lists the statuses a schedule may name.
func (Status) Values() []string { return []string{"open", "closed"} }

// Change is one change to a ticket: set its status (Status, DecidedOn) or add a comment (Text). ChangeID
// is made once, when someone decides on the change, and kept across retries. DecidedOn is the ticket's
// version when the change was decided.
type Change struct {
	Kind      string `json:"kind"`
	ChangeID  string `json:"changeId"`
	TicketID  int    `json:"ticketId"`
	Status    Status `json:"status,omitempty"`
	DecidedOn int    `json:"decidedOn,omitempty"`
	Text      string `json:"text,omitempty"`
}

// UnionTag is the field that picks a change's shape.
func (Change) UnionTag() string { return "kind" }

// Shapes lists the fields each kind of change takes.
func (Change) Shapes() map[string]any {
	return map[string]any{
		"set-status": struct {
			Kind      string `json:"kind"`
			ChangeID  string `json:"changeId"`
			TicketID  int    `json:"ticketId"`
			Status    Status `json:"status"`
			DecidedOn int    `json:"decidedOn"`
		}{},
		"add-comment": struct {
			Kind     string `json:"kind"`
			ChangeID string `json:"changeId"`
			TicketID int    `json:"ticketId"`
			Text     string `json:"text"`
		}{},
	}
}

// Answer is what the sender hears: set (the ticket has Status at Version), stale (refused like HTTP's 409:
// the ticket is at Version), commented (the comment is number Comment on the ticket), or crashed.
type Answer struct {
	Kind    string `json:"kind"`
	Status  Status `json:"status,omitempty"`
	Version int    `json:"version,omitempty"`
	Comment int    `json:"comment,omitempty"`
}

// UnionTag is the field that picks an answer's shape.
func (Answer) UnionTag() string { return "kind" }

// Shapes lists the fields each kind of answer takes.
func (Answer) Shapes() map[string]any {
	type kind struct {
		Kind string `json:"kind"`
	}
	return map[string]any{
		"set": struct {
			Kind    string `json:"kind"`
			Status  Status `json:"status"`
			Version int    `json:"version"`
		}{},
		"stale": struct {
			Kind    string `json:"kind"`
			Version int    `json:"version"`
		}{},
		"commented": struct {
			Kind    string `json:"kind"`
			Comment int    `json:"comment"`
		}{},
		"crashed": kind{},
	}
}

// Crashed is what the sender hears from a worker that died: nothing.
var Crashed = Answer{Kind: "crashed"}

// Ticket is a ticket as the store keeps it. Version counts its status changes; LastChange is the ChangeID
// that made the current version ("" while none has; the schedules write null).
type Ticket struct {
	ID         int      `json:"id"`
	Status     Status   `json:"status"`
	Version    int      `json:"version"`
	LastChange string   `json:"lastChange" schedule:"nullable"`
	Comments   []string `json:"comments"`
}

// StartTicket is a ticket as a schedule starts it: no change has made its version, no comments yet.
type StartTicket struct {
	ID      int    `json:"id"`
	Status  Status `json:"status"`
	Version int    `json:"version"`
}

// Receipt remembers a change by its id, with the answer it got.
type Receipt struct {
	ChangeID string `json:"changeId"`
	Answer   Answer `json:"answer"`
}

// Store is what a handler keeps: the tickets, and the receipts of the changes it remembers.
type Store struct {
	Tickets  []Ticket
	Receipts []Receipt
}

// Ticket is the ticket a change is about, to change in place; the schedule loader checks that every change
// names one.
func (s *Store) Ticket(id int) *Ticket {
	for i := range s.Tickets {
		if s.Tickets[i].ID == id {
			return &s.Tickets[i]
		}
	}
	panic(fmt.Sprintf("status: there is no ticket #%d", id))
}

// Receipt is the receipt of a change, or nil when the store has none for it.
func (s *Store) Receipt(changeID string) *Receipt {
	for i := range s.Receipts {
		if s.Receipts[i].ChangeID == changeID {
			return &s.Receipts[i]
		}
	}
	return nil
}

func (s Store) copy() Store {
	out := Store{Receipts: append([]Receipt{}, s.Receipts...)}
	for _, t := range s.Tickets {
		t.Comments = append([]string{}, t.Comments...)
		out.Tickets = append(out.Tickets, t)
	}
	return out
}

// Rules is how one handler applies each kind of change to a staged store, returning the answer to send.
type Rules struct {
	SetStatus  func(*Store, Change) Answer
	AddComment func(*Store, Change) Answer
}

// Handler commits one change at a time the way exercise 02 did: the rules change a staged copy, and one
// assignment makes it visible, so a worker that dies before its commit leaves nothing behind.
type Handler struct {
	rules Rules
	store Store
}

// NewHandler starts a handler with the schedule's tickets.
func NewHandler(rules Rules, start []StartTicket) *Handler {
	h := &Handler{rules: rules}
	for _, t := range start {
		h.store.Tickets = append(h.store.Tickets, Ticket{ID: t.ID, Status: t.Status, Version: t.Version, Comments: []string{}})
	}
	return h
}

// Handle applies one change; fault says where its worker dies, if it does.
func (h *Handler) Handle(change Change, fault handler.Fault) Answer {
	staged := h.store.copy()
	apply := h.rules.SetStatus
	if change.Kind == "add-comment" {
		apply = h.rules.AddComment
	}
	answer := apply(&staged, change)
	if fault == handler.BeforeCommit {
		return Crashed
	}
	h.store = staged
	if fault == handler.AfterCommit {
		return Crashed
	}
	return answer
}

// Snapshot is a copy of the store.
func (h *Handler) Snapshot() Store { return h.store.copy() }
