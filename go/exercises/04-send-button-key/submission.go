// Package sendbuttonkey is exercise 04 in Go: a key for the Send button, kept in the tab's storage, so that
// trying again after an unknown outcome can't create a second ticket. Read
// exercises/04-send-button-key/README.md, write New (and the keyStore it returns) and AfterAnswer, and run
// go test ./exercises/04-send-button-key from go/.
package sendbuttonkey

import (
	. "workbook/client"
	"workbook/core"
)

// keyStore keeps one key per request the user means to send, for one form. Its fields are yours to choose.
type keyStore[T any] struct {
	storage KeyStore
	name    string // EntryName(form): where the form keeps its unfinished submission
	newKey  func() string
}

// New returns the submissions of one form, kept in storage. newKey makes a key for each new request; nil
// makes random UUIDs (RandomUUID), as crypto.randomUUID() does in a browser. An attempt whose outcome is
// unknown keeps its key and its body, even across a reload of the tab.
func New[T any](storage KeyStore, form string, newKey func() string) Submissions[T] {
	panic(core.Todo("New", "04-send-button-key/submission.go"))
}

// Pending returns the unfinished submission, from this page's memory or from storage, or nil.
func (s *keyStore[T]) Pending() *Pending[T] {
	panic(core.Todo("keyStore.Pending", "04-send-button-key/submission.go"))
}

// Begin continues the unfinished submission with its original key and body, or starts a new one.
func (s *keyStore[T]) Begin(body T) Pending[T] {
	panic(core.Todo("keyStore.Begin", "04-send-button-key/submission.go"))
}

// Finish is for a definite answer: the next submission is a new request.
func (s *keyStore[T]) Finish() {
	panic(core.Todo("keyStore.Finish", "04-send-button-key/submission.go"))
}

// AfterAnswer says what an answer means for the form (created, refused or unsure), and finishes the
// submission when it is over.
func AfterAnswer[T any](s Submissions[T], answer Answer) FormState {
	panic(core.Todo("AfterAnswer", "04-send-button-key/submission.go"))
}
