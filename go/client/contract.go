package client

import (
	"fmt"
	"strings"
	"testing"
)

// Exercise 04's focused tests, the Go port of exercises/04-send-button-key/submission.test.ts's: the lesson's
// contract case by case, then damaged entries and a storage that throws, so a Go key store that drifts from
// the TypeScript one fails here too. They live in the harness, not beside the stub, so that a learner's edit
// compiles only the few lines that call them (these were most of the exercise's compile):
//
//	client.TheLessonsContract(t, New[client.TicketBody], AfterAnswer[client.TicketBody])
//	client.DamagedEntriesAndAThrowingStorage(t, New[client.TicketBody])

// AfterAnswerOf is exercise 04's AfterAnswer for the support form's body.
type AfterAnswerOf func(s Submissions[TicketBody], answer Answer) FormState

// focused is the key store under test: its New, and its AfterAnswer where a test needs one.
type focused struct {
	newForm     NewForm
	afterAnswer AfterAnswerOf
}

// TheLessonsContract: one key per request the user means to send, kept across retries and reloads, and
// what each answer means.
func TheLessonsContract(t *testing.T, newForm NewForm, afterAnswer AfterAnswerOf) {
	t.Helper()
	f := focused{newForm, afterAnswer}
	t.Run("the lesson's contract", func(t *testing.T) {
		t.Run("one key per request the user means to send", f.testSubmissions)
		t.Run("Begin() again continues it: the original key and body, even after the fields were edited", f.testBeginAgainContinuesIt)
		t.Run("Begin() straight after a reload, with no Pending() first, continues the stored submission", f.testBeginAfterAReloadContinuesWithoutPending)
		t.Run("AfterAnswer: what an answer means", f.testAfterAnswerReadsTheStatusFamily)
	})
}

// DamagedEntriesAndAThrowingStorage: a damaged stored entry is no pending submission, and a storage that
// throws never loses the request (the subtests of TestKeyStore's "beyond the lesson").
func DamagedEntriesAndAThrowingStorage(t *testing.T, newForm NewForm) {
	t.Helper()
	f := focused{newForm: newForm}
	t.Run("a damaged stored entry is no pending submission, never an error", f.testDamagedEntries)
	t.Run("a storage that throws never loses the request", f.testFailingStorage)
}

var (
	signIn = TicketBody{Subject: "Cannot sign in"}
	edited = TicketBody{Subject: "Cannot sign in on the train"}
)

func (f focused) support(storage *MemoryStorage) Submissions[TicketBody] {
	return f.newForm(storage, "support", NumberedKeys())
}

// none is no pending submission, as Pending() returns it.
var none *Pending[TicketBody]

func (f focused) testBeginAgainContinuesIt(t *testing.T) {
	c := Case{t, "Begin() again continues it: the original key and body, even after the fields were edited"}
	s := f.support(&MemoryStorage{})
	s.Begin(signIn)
	c.Check("Begin(edited) after Begin(signIn)", s.Begin(edited), Pending[TicketBody]{Key: "key-1", Body: signIn}, "a retry, not a new request")
}

func (f focused) testBeginAfterAReloadContinuesWithoutPending(t *testing.T) {
	c := Case{t, "Begin() straight after a reload, with no Pending() first, continues the stored submission"}
	storage := &MemoryStorage{}
	f.support(storage).Begin(signIn)
	c.Check("Begin(edited) on the reloaded page", f.support(storage).Begin(edited), Pending[TicketBody]{Key: "key-1", Body: signIn}, "the new page must look in storage, not only in its memory")
}

// testDamagedEntries: a damaged stored entry is no pending submission, never an error.
func (f focused) testDamagedEntries(t *testing.T) {
	damaged := []struct{ what, text string }{
		{"text that is not JSON", `{"key": "key-0", "body": `},
		{"JSON null", `null`},
		{"a number", `42`},
		{"a string", `"key-0"`},
		{"an entry without a key", `{"body":{"subject":"Cannot sign in"}}`},
		{"an empty key", `{"key":"","body":{"subject":"Cannot sign in"}}`},
		{"a key that is not text", `{"key":7,"body":{"subject":"Cannot sign in"}}`},
		{"an entry without a body", `{"key":"key-0"}`},
		{"a body that is not an object", `{"key":"key-0","body":"Cannot sign in"}`},
		{"a body that is null", `{"key":"key-0","body":null}`},
		{"a body that is a list", `{"key":"key-0","body":["Cannot sign in"]}`},
		{"a body whose field is not text", `{"key":"key-0","body":{"subject":7}}`},
		{"a body with one text field and one that is not", `{"key":"key-0","body":{"subject":"Cannot sign in","priority":2}}`},
	}
	for _, test := range damaged {
		RunCase(t, test.what, func(c Case) {
			storage := &MemoryStorage{}
			storage.Put(EntryName("support"), test.text)
			s := f.support(storage)
			c.Check("Pending() with "+test.text+" stored", s.Pending(), none, "no form writes this entry: it is damaged, so nothing is pending")
			c.Check("what storage holds after Pending()", storage.Contents(), map[string]string{}, "Pending() discards the damaged entry")
			c.Check("Begin(signIn) after it", s.Begin(signIn), Pending[TicketBody]{Key: "key-1", Body: signIn}, "")
			c.Check(`the entry "`+EntryName("support")+`"`, storage.Contents()[EntryName("support")], `{"key":"key-1","body":{"subject":"Cannot sign in"}}`, "the damaged entry is replaced")
		})
	}
}

// testFailingStorage: a storage that throws never loses the request.
func (f focused) testFailingStorage(t *testing.T) {
	first := &Pending[TicketBody]{Key: "key-1", Body: signIn}
	RunCase(t, "setItem fails: Send again reuses the key and body", func(c Case) {
		storage := &MemoryStorage{}
		s := f.support(storage)
		storage.Fail(SetItem)
		s.Begin(signIn)
		c.Check("Begin(edited) again", s.Begin(edited), *first, "the page keeps what storage would not")
		c.Check("Pending()", s.Pending(), first, "")
	})
	RunCase(t, "every call fails: one key until Finish", func(c Case) {
		storage := &MemoryStorage{}
		s := f.support(storage)
		storage.Fail()
		c.Check("Pending() while every call fails", s.Pending(), none, "")
		s.Begin(signIn)
		c.Check("Begin(edited)'s key again", s.Begin(edited).Key, "key-1", "the page keeps one key until Finish()")
		s.Finish()
		c.Check("Pending() after Finish()", s.Pending(), none, "")
		c.Check("Begin(edited) after Finish()", s.Begin(edited), Pending[TicketBody]{Key: "key-2", Body: edited}, "")
	})
	RunCase(t, "getItem starts failing after Send: Pending still returns the submission", func(c Case) {
		storage := &MemoryStorage{}
		s := f.support(storage)
		s.Begin(signIn)
		storage.Fail(GetItem)
		c.Check("Pending() while getItem fails", s.Pending(), first, "the page already knows it: it needs no storage to say so")
	})
	RunCase(t, "getItem fails as a page opens: the entry is left for a later page", func(c Case) {
		storage := &MemoryStorage{}
		f.support(storage).Begin(signIn)
		storage.Fail(GetItem)
		c.Check("Pending() on a page opened while getItem fails", f.support(storage).Pending(), none, "")
		storage.Heal()
		c.Check("Pending() on a later page", f.support(storage).Pending(), first, "an unreadable storage is no reason to delete what it holds")
	})
	RunCase(t, "removeItem fails on Finish: the finished key is never offered again", func(c Case) {
		storage := &MemoryStorage{}
		s := f.support(storage)
		s.Begin(signIn)
		storage.Fail(RemoveItem)
		s.Finish()
		c.Check("Pending() after Finish()", s.Pending(), none, "key-1 is still in storage, and it is finished: not pending")
		c.Check("Begin(edited) after it", s.Begin(edited), Pending[TicketBody]{Key: "key-2", Body: edited}, "")
	})
	RunCase(t, "removeItem and setItem fail: no finished submission ever comes back", func(c Case) {
		storage := &MemoryStorage{}
		s := f.support(storage)
		s.Begin(signIn)
		storage.Fail(SetItem, RemoveItem)
		s.Finish()
		c.Check("Begin(edited)'s key after Finish()", s.Begin(edited).Key, "key-2", "a new request")
		s.Finish()
		c.Check("Pending() after key-2's Finish()", s.Pending(), none, "key-1 is still in storage, and it is finished: not pending")
		c.Check("Begin(signIn) after it", s.Begin(signIn), Pending[TicketBody]{Key: "key-3", Body: signIn}, "no finished key is offered to Send either")
	})
	RunCase(t, "a storage that refuses everything cannot survive a reload", func(c Case) {
		storage := &MemoryStorage{}
		storage.Fail()
		f.support(storage).Begin(signIn)
		c.Check("Pending() on the reloaded page", f.support(storage).Pending(), none, "")
	})
}

// NumberedKeys makes the keys key-1, key-2, … in turn: the newKey of the tests, so a key says which
// request it was made for.
func NumberedKeys() func() string {
	n := 0
	return func() string { n++; return "key-" + string(rune('0'+n)) }
}

func (f focused) testSubmissions(t *testing.T) {
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
			f.afterAnswer(s, Answer{Replied: true, Status: 201, TicketID: 1})
			return []string{first, s.Begin(body).Key}
		}, []string{"key-1", "key-2"}, `{"key":"key-2","body":{"subject":"Cannot sign in"}}`},
		{"no answer and a 500 keep the key", func(s Submissions[TicketBody], _ *MemoryStorage) []string {
			first := s.Begin(body).Key
			f.afterAnswer(s, NoAnswer)
			second := s.Begin(body).Key
			f.afterAnswer(s, Answer{Replied: true, Status: 500})
			return []string{first, second, s.Begin(body).Key}
		}, []string{"key-1", "key-1", "key-1"}, `{"key":"key-1","body":{"subject":"Cannot sign in"}}`},
		{"a full storage still keeps the key on this page", func(s Submissions[TicketBody], storage *MemoryStorage) []string {
			storage.Fail()
			return []string{s.Begin(body).Key, s.Begin(body).Key}
		}, []string{"key-1", "key-1"}, ""},
		{"a damaged entry is nothing pending, and is discarded", func(s Submissions[TicketBody], storage *MemoryStorage) []string {
			storage.Put(EntryName("support"), `{"key": "", "body": {}}`)
			if pending := s.Pending(); pending != nil {
				return []string{"a pending submission: " + Said(pending)}
			}
			return nil
		}, nil, ""},
	}
	for _, test := range tests {
		RunCase(t, test.name, func(c Case) {
			storage := &MemoryStorage{}
			keys := test.steps(f.newForm(storage, "support", NumberedKeys()), storage)
			said := func(keys []string) string {
				if len(keys) == 0 {
					return "nothing"
				}
				return strings.Join(keys, ", ")
			}
			c.Check("what the form handed out", said(keys), said(test.want), "")
			storage.Heal()
			saved, _, _ := storage.GetItem(EntryName("support"))
			c.Check(`the entry "`+EntryName("support")+`" at the end`, saved, test.storage, "")
		})
	}
}

func (f focused) testAfterAnswerReadsTheStatusFamily(t *testing.T) {
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
		RunCase(t, test.shows, func(c Case) {
			s := f.newForm(&MemoryStorage{}, "support", NumberedKeys())
			first := s.Begin(TicketBody{Subject: "x"}).Key
			c.Check(fmt.Sprintf("AfterAnswer(…, %s)", saidAnswer(test.answer)), f.afterAnswer(s, test.answer).String(), test.shows, "")
			next := map[bool]string{true: "a new key", false: "the same key"}
			means := map[bool]string{true: "a definite answer finishes the submission", false: "an open outcome keeps the key"}
			c.Check("the key of the next Begin()", next[s.Begin(TicketBody{Subject: "x"}).Key != first], next[test.finished], means[test.finished])
		})
	}
}

// saidAnswer: "no answer", or the status it carried.
func saidAnswer(answer Answer) string {
	if !answer.Replied {
		return "no answer"
	}
	return fmt.Sprintf("HTTP %d", answer.Status)
}
