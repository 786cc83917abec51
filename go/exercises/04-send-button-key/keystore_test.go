package sendbuttonkey

import (
	"strings"
	"testing"

	. "workbook/client"
	"workbook/core"
)

// code is the learner's key store, as the journeys take it.
var code = KeyStoreCode{New: New[Fields], AfterAnswer: AfterAnswer[Fields]}

// TestKeyStore is exercise 04's test, as exercises/04-send-button-key/submission.test.ts is TypeScript's:
// every schedules/client journey with your key store (and the given anti-pattern beside it), the lesson's
// contract case by case, then damaged entries and a storage that throws.
func TestKeyStore(t *testing.T) {
	core.Written(t, func() {
		s := New[TicketBody](&MemoryStorage{}, "support", counter())
		s.Begin(TicketBody{Subject: "Cannot sign in"})
		s.Pending()
		AfterAnswer(s, NoAnswer)
		s.Finish()
	})
	PlayJourneys(t, code)
	t.Run("the form locks its fields while unsure", func(t *testing.T) { FormLocksItsFieldsWhileUnsure(t, code) })
	t.Run("the lesson's contract", func(t *testing.T) {
		t.Run("one key per request the user means to send", testSubmissions)
		t.Run("Begin() again continues it: the original key and body, even after the fields were edited", testBeginAgainContinuesIt)
		t.Run("Begin() straight after a reload, with no Pending() first, continues the stored submission", testBeginAfterAReloadContinuesWithoutPending)
		t.Run("AfterAnswer: what an answer means", testAfterAnswerReadsTheStatusFamily)
	})
	t.Run("beyond the lesson: damaged entries and a storage that throws (the README says why)", func(t *testing.T) {
		t.Run("a damaged stored entry is no pending submission, never an error", testDamagedEntries)
		t.Run("a storage that throws never loses the request", testFailingStorage)
		t.Run("made-up tab lives over a storage that refuses at random: nothing thrown, a finished submission never back on its page", func(t *testing.T) {
			MadeUpTabLivesOverAFailingStorage(t, New[TicketBody])
		})
		t.Run("removeItem refused, Finish() twice, then a look: nothing finished comes back", func(t *testing.T) {
			TheIssuesLifeBreaksNothing(t, New[TicketBody])
		})
	})
}

func counter() func() string {
	n := 0
	return func() string { n++; return "key-" + string(rune('0'+n)) }
}

func testSubmissions(t *testing.T) {
	body := TicketBody{Subject: "Cannot sign in"}
	tests := []struct {
		name    string
		steps   func(s Submissions[TicketBody], storage *MemoryStorage) []string // the keys Begin handed out
		want    []string
		storage string // what the form's entry holds at the end ("" for none)
	}{
		{"Send pressed twice keeps the key", func(s Submissions[TicketBody], _ *MemoryStorage) []string {
			return []string{s.Begin(body).Key, s.Begin(TicketBody{Subject: "edited"}).Key}
		}, []string{"key-1", "key-1"}, `{"key":"key-1","body":{"subject":"Cannot sign in"}}`},
		{"a definite answer makes the next Send new", func(s Submissions[TicketBody], _ *MemoryStorage) []string {
			first := s.Begin(body).Key
			AfterAnswer(s, Answer{Replied: true, Status: 201, TicketID: 1})
			return []string{first, s.Begin(body).Key}
		}, []string{"key-1", "key-2"}, `{"key":"key-2","body":{"subject":"Cannot sign in"}}`},
		{"no answer and a 500 keep the key", func(s Submissions[TicketBody], _ *MemoryStorage) []string {
			first := s.Begin(body).Key
			AfterAnswer(s, NoAnswer)
			second := s.Begin(body).Key
			AfterAnswer(s, Answer{Replied: true, Status: 500})
			return []string{first, second, s.Begin(body).Key}
		}, []string{"key-1", "key-1", "key-1"}, `{"key":"key-1","body":{"subject":"Cannot sign in"}}`},
		{"a full storage still keeps the key on this page", func(s Submissions[TicketBody], storage *MemoryStorage) []string {
			storage.Fail()
			return []string{s.Begin(body).Key, s.Begin(body).Key}
		}, []string{"key-1", "key-1"}, ""},
		{"a damaged entry is nothing pending, and is discarded", func(s Submissions[TicketBody], storage *MemoryStorage) []string {
			storage.Put(EntryName("support"), `{"key": "", "body": {}}`)
			if s.Pending() != nil {
				return []string{"pending"}
			}
			return nil
		}, nil, ""},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			storage := &MemoryStorage{}
			keys := test.steps(New[TicketBody](storage, "support", counter()), storage)
			if strings.Join(keys, ",") != strings.Join(test.want, ",") {
				t.Errorf("keys %v, want %v", keys, test.want)
			}
			storage.Heal()
			if saved, _, _ := storage.GetItem(EntryName("support")); saved != test.storage {
				t.Errorf("the entry holds %q, want %q", saved, test.storage)
			}
		})
	}
}

func testAfterAnswerReadsTheStatusFamily(t *testing.T) {
	tests := []struct {
		answer   Answer
		shows    string
		finished bool // the next Send is a new request
	}{
		{NoAnswer, "unsure (no answer)", false},
		{Answer{Replied: true, Status: 201, TicketID: 1}, "created #1", true},
		{Answer{Replied: true, Status: 299, TicketID: 1}, "created #1", true},
		{Answer{Replied: true, Status: 302}, "unsure (HTTP 302)", false},
		{Answer{Replied: true, Status: 400}, "refused (HTTP 400)", true},
		{Answer{Replied: true, Status: 409}, "unsure (HTTP 409)", false},
		{Answer{Replied: true, Status: 422}, "refused (HTTP 422)", true},
		{Answer{Replied: true, Status: 499}, "refused (HTTP 499)", true},
		{Answer{Replied: true, Status: 500}, "unsure (HTTP 500)", false},
		{Answer{Replied: true, Status: 0}, "unsure (HTTP 0)", false},
	}
	for _, test := range tests {
		t.Run(test.shows, func(t *testing.T) {
			s := New[TicketBody](&MemoryStorage{}, "support", counter())
			first := s.Begin(TicketBody{Subject: "x"}).Key
			if shows := AfterAnswer(s, test.answer).String(); shows != test.shows {
				t.Errorf("the form shows %q, want %q", shows, test.shows)
			}
			if finished := s.Begin(TicketBody{Subject: "x"}).Key != first; finished != test.finished {
				t.Errorf("a new key after it: %v, want %v", finished, test.finished)
			}
		})
	}
}
