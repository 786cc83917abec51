package client

import (
	"reflect"
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

func pendingIs(t *testing.T, got *Pending[TicketBody], want *Pending[TicketBody], why string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: Pending() = %+v, want %+v", why, got, want)
	}
}

func (f focused) testBeginAgainContinuesIt(t *testing.T) {
	storage := &MemoryStorage{}
	s := f.support(storage)
	s.Begin(signIn)
	if got := s.Begin(edited); got != (Pending[TicketBody]{Key: "key-1", Body: signIn}) {
		t.Errorf("Begin(edited) after Begin(signIn) = %+v; want key-1 with the first body: a retry, not a new request", got)
	}
}

func (f focused) testBeginAfterAReloadContinuesWithoutPending(t *testing.T) {
	storage := &MemoryStorage{}
	f.support(storage).Begin(signIn)
	if got := f.support(storage).Begin(edited); got != (Pending[TicketBody]{Key: "key-1", Body: signIn}) {
		t.Errorf("Begin on a reloaded page = %+v; want key-1 and the first body: the new page must look in storage, not only in its memory", got)
	}
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
		t.Run(test.what, func(t *testing.T) {
			storage := &MemoryStorage{}
			storage.Put(EntryName("support"), test.text)
			s := f.support(storage)
			pendingIs(t, s.Pending(), nil, "with "+test.text+" stored")
			if contents := storage.Contents(); len(contents) != 0 {
				t.Errorf("Pending() left %v; want the damaged entry discarded", contents)
			}
			if got := s.Begin(signIn); got != (Pending[TicketBody]{Key: "key-1", Body: signIn}) {
				t.Errorf("Begin = %+v, want a new request key-1", got)
			}
			want := `{"key":"key-1","body":{"subject":"Cannot sign in"}}`
			if saved := storage.Contents()[EntryName("support")]; saved != want {
				t.Errorf("the entry holds %s, want %s", saved, want)
			}
		})
	}
}

// testFailingStorage: a storage that throws never loses the request.
func (f focused) testFailingStorage(t *testing.T) {
	first := &Pending[TicketBody]{Key: "key-1", Body: signIn}
	t.Run("setItem fails: Send again reuses the key and body", func(t *testing.T) {
		storage := &MemoryStorage{}
		s := f.support(storage)
		storage.Fail(SetItem)
		s.Begin(signIn)
		if got := s.Begin(edited); got != *first {
			t.Errorf("Begin again = %+v, want %+v", got, *first)
		}
		pendingIs(t, s.Pending(), first, "setItem failed")
	})
	t.Run("every call fails: one key until Finish", func(t *testing.T) {
		storage := &MemoryStorage{}
		s := f.support(storage)
		storage.Fail()
		pendingIs(t, s.Pending(), nil, "nothing sent yet")
		s.Begin(signIn)
		if got := s.Begin(edited).Key; got != "key-1" {
			t.Errorf("Begin again = %s, want key-1", got)
		}
		s.Finish()
		pendingIs(t, s.Pending(), nil, "after Finish")
		if got := s.Begin(edited); got != (Pending[TicketBody]{Key: "key-2", Body: edited}) {
			t.Errorf("Begin after Finish = %+v, want key-2 with the edited body", got)
		}
	})
	t.Run("getItem starts failing after Send: Pending still returns the submission", func(t *testing.T) {
		storage := &MemoryStorage{}
		s := f.support(storage)
		s.Begin(signIn)
		storage.Fail(GetItem)
		pendingIs(t, s.Pending(), first, "getItem failed")
	})
	t.Run("getItem fails as a page opens: the entry is left for a later page", func(t *testing.T) {
		storage := &MemoryStorage{}
		f.support(storage).Begin(signIn)
		storage.Fail(GetItem)
		pendingIs(t, f.support(storage).Pending(), nil, "an unreadable storage")
		storage.Heal()
		pendingIs(t, f.support(storage).Pending(), first, "a later page that can read it")
	})
	t.Run("removeItem fails on Finish: the finished key is never offered again", func(t *testing.T) {
		storage := &MemoryStorage{}
		s := f.support(storage)
		s.Begin(signIn)
		storage.Fail(RemoveItem)
		s.Finish()
		pendingIs(t, s.Pending(), nil, "after Finish")
		if got := s.Begin(edited); got != (Pending[TicketBody]{Key: "key-2", Body: edited}) {
			t.Errorf("Begin after Finish = %+v, want key-2", got)
		}
	})
	t.Run("removeItem and setItem fail: no finished submission ever comes back", func(t *testing.T) {
		storage := &MemoryStorage{}
		s := f.support(storage)
		s.Begin(signIn)
		storage.Fail(SetItem, RemoveItem)
		s.Finish()
		if got := s.Begin(edited).Key; got != "key-2" {
			t.Errorf("Begin after Finish = %s, want key-2", got)
		}
		s.Finish()
		pendingIs(t, s.Pending(), nil, "key-1 is still in storage, and it is finished: not pending")
		if got := s.Begin(signIn).Key; got != "key-3" {
			t.Errorf("Begin = %s, want key-3", got)
		}
	})
	t.Run("a storage that refuses everything cannot survive a reload", func(t *testing.T) {
		storage := &MemoryStorage{}
		storage.Fail()
		f.support(storage).Begin(signIn)
		pendingIs(t, f.support(storage).Pending(), nil, "the reloaded page")
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
			if s.Pending() != nil {
				return []string{"pending"}
			}
			return nil
		}, nil, ""},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			storage := &MemoryStorage{}
			keys := test.steps(f.newForm(storage, "support", NumberedKeys()), storage)
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
		t.Run(test.shows, func(t *testing.T) {
			s := f.newForm(&MemoryStorage{}, "support", NumberedKeys())
			first := s.Begin(TicketBody{Subject: "x"}).Key
			if shows := f.afterAnswer(s, test.answer).String(); shows != test.shows {
				t.Errorf("the form shows %q, want %q", shows, test.shows)
			}
			if finished := s.Begin(TicketBody{Subject: "x"}).Key != first; finished != test.finished {
				t.Errorf("a new key after it: %v, want %v", finished, test.finished)
			}
		})
	}
}
