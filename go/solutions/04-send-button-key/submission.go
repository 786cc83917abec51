// Package sendbuttonkey is exercise 04 in Go: a key for the Send button, kept in the tab's storage, so that
// trying again after an unknown outcome can't create a second ticket. Read
// exercises/04-send-button-key/README.md, write New (and the keyStore it returns) and AfterAnswer, and run
// go test ./exercises/04-send-button-key from go/.
package sendbuttonkey

import (
	"encoding/json"
	"fmt"

	. "workbook/client"
)

// keyStore keeps one key per request the user means to send, for one form.
type keyStore[T any] struct {
	storage KeyStore
	name    string
	newKey  func() string
	current *Pending[T]
	// finished holds the keys finished while their entry could not be removed: never offered again from
	// this page. All of them, not the last: a stale entry can outlive a later submission storage refused.
	finished map[string]bool
}

// New returns the submissions of one form, kept in storage. newKey makes a key for each new request; nil
// makes random UUIDs (RandomUUID), as crypto.randomUUID() does in a browser.
func New[T any](storage KeyStore, form string, newKey func() string) Submissions[T] {
	if newKey == nil {
		newKey = RandomUUID
	}
	return &keyStore[T]{storage: storage, name: EntryName(form), newKey: newKey, finished: map[string]bool{}}
}

// Pending returns the unfinished submission, from this page's memory or from storage, or nil.
func (s *keyStore[T]) Pending() *Pending[T] {
	if s.current == nil {
		s.current = s.stored()
	}
	return s.current
}

// Begin continues the unfinished submission with its original key and body, or starts a new one.
func (s *keyStore[T]) Begin(body T) Pending[T] {
	if unfinished := s.Pending(); unfinished != nil {
		return *unfinished
	}
	started := Pending[T]{Key: s.newKey(), Body: body}
	text, err := json.Marshal(started)
	if err != nil {
		panic(fmt.Sprintf("client: a body that can't be stored as JSON: %v", err))
	}
	// Kept as it was sent: changing the caller's value later can't change what a retry sends.
	var kept Pending[T]
	_ = json.Unmarshal(text, &kept)
	s.current = &kept
	// Full or refused: this page still keeps it, so Send again reuses the key until the tab reloads.
	_ = s.storage.SetItem(s.name, string(text))
	return kept
}

// Finish is for a definite answer: the next submission is a new request.
func (s *keyStore[T]) Finish() {
	if p := s.Pending(); p != nil {
		s.finished[p.Key] = true
	}
	s.current = nil
	s.forget()
}

// stored reads the storage entry. Anything that is not a submission (not JSON, no key, a body that is not
// the form's fields) counts as nothing, and is discarded; an unreadable storage has nothing this page doesn't already know.
func (s *keyStore[T]) stored() *Pending[T] {
	saved, ok, err := s.storage.GetItem(s.name)
	if err != nil || !ok {
		return nil
	}
	entry := read[T](saved)
	if entry == nil {
		s.forget()
		return nil
	}
	if s.finished[entry.Key] {
		return nil
	}
	return entry
}

func (s *keyStore[T]) forget() {
	// Refused: the key is remembered in finished instead.
	_ = s.storage.RemoveItem(s.name)
}

func read[T any](saved string) *Pending[T] {
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(saved), &fields) != nil || fields == nil {
		return nil
	}
	var entry Pending[T]
	rawKey, hasKey := fields["key"]
	rawBody, hasBody := fields["body"]
	if !hasKey || !hasBody || json.Unmarshal(rawKey, &entry.Key) != nil || entry.Key == "" {
		return nil
	}
	// A form sends its fields as text: a body is an object whose every field is a string.
	var text map[string]string
	if json.Unmarshal(rawBody, &text) != nil || text == nil {
		return nil
	}
	if json.Unmarshal(rawBody, &entry.Body) != nil {
		return nil
	}
	return &entry
}

// AfterAnswer says what an answer means for the form, and finishes the submission when it is over.
func AfterAnswer[T any](s Submissions[T], answer Answer) FormState {
	if !answer.Replied {
		return UnsureNoAnswer
	}
	status := answer.Status
	switch family := status / 100; {
	case family == 2:
		s.Finish()
		return Created(answer.TicketID)
	case family == 4 && status != 409:
		// A definite no: sending it again would get the same answer, and a corrected ticket is a new request.
		s.Finish()
		return Refused(status)
	}
	// 409 (still in progress), 5xx and anything else (a redirect not followed): it may exist, so keep the key.
	return Unsure(status)
}
