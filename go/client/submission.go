package client

import (
	"crypto/rand"
	"fmt"
)

// The key store's model, as harness/client/model.ts is TypeScript's: what a form sends, what is pending,
// where it is kept, what came back. Exercise 04's learner writes the key store itself
// (go/exercises/04-send-button-key), as a Submissions.

// TicketBody is what the support form sends: the body of a new ticket.
type TicketBody struct {
	Subject string `json:"subject"`
}

// Pending is a submission whose outcome is not known yet: the key it was sent with, and exactly what was
// sent.
type Pending[T any] struct {
	Key  string `json:"key"`
	Body T      `json:"body"`
}

// EntryName is where a form keeps its unfinished submission: one storage entry per form.
func EntryName(form string) string { return "pending-submission:" + form }

// Submissions keeps one key per request the user means to send, for one form: what exercise 04's New
// returns.
type Submissions[T any] interface {
	// Pending returns the unfinished submission, from this page's memory or from storage, or nil.
	Pending() *Pending[T]
	// Begin continues the unfinished submission with its original key and body, or starts a new one.
	Begin(body T) Pending[T]
	// Finish is for a definite answer: the next submission is a new request.
	Finish()
}

// KeyStoreCode is exercise 04's two functions, as the journeys and the tests take them: New over a storage,
// and AfterAnswer.
type KeyStoreCode struct {
	New         func(storage KeyStore, form string, newKey func() string) Submissions[Fields]
	AfterAnswer func(s Submissions[Fields], answer Answer) FormState
}

// RandomUUID makes a random version 4 UUID, as crypto.randomUUID() does in a browser.
func RandomUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Answer is what came back for one request: a reply with its HTTP status (and the ticket it names, 0 for
// none), or nothing at all.
type Answer struct {
	Replied  bool
	Status   int
	TicketID int
}

// NoAnswer is a request whose reply never came.
var NoAnswer = Answer{}
