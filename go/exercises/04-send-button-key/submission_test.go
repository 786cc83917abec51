package sendbuttonkey

import (
	"reflect"
	"testing"

	. "workbook/client"
)

// The Go port of exercise 04's focused tests (exercises/04-send-button-key/submission.test.ts): the same
// cases, so a Go Submissions that drifts from the TypeScript one fails here too.

var (
	signIn = TicketBody{Subject: "Cannot sign in"}
	edited = TicketBody{Subject: "Cannot sign in on the train"}
)

func support(storage *MemoryStorage) Submissions[TicketBody] {
	return New[TicketBody](storage, "support", counter())
}

func pendingIs(t *testing.T, got *Pending[TicketBody], want *Pending[TicketBody], why string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: Pending() = %+v, want %+v", why, got, want)
	}
}

func testBeginAgainContinuesIt(t *testing.T) {
	storage := &MemoryStorage{}
	s := support(storage)
	s.Begin(signIn)
	if got := s.Begin(edited); got != (Pending[TicketBody]{Key: "key-1", Body: signIn}) {
		t.Errorf("Begin(edited) after Begin(signIn) = %+v; want key-1 with the first body: a retry, not a new request", got)
	}
}

func testBeginAfterAReloadContinuesWithoutPending(t *testing.T) {
	storage := &MemoryStorage{}
	support(storage).Begin(signIn)
	if got := support(storage).Begin(edited); got != (Pending[TicketBody]{Key: "key-1", Body: signIn}) {
		t.Errorf("Begin on a reloaded page = %+v; want key-1 and the first body: the new page must look in storage, not only in its memory", got)
	}
}

// testDamagedEntries: a damaged stored entry is no pending submission, never an error.
func testDamagedEntries(t *testing.T) {
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
			s := support(storage)
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
func testFailingStorage(t *testing.T) {
	first := &Pending[TicketBody]{Key: "key-1", Body: signIn}
	t.Run("setItem fails: Send again reuses the key and body", func(t *testing.T) {
		storage := &MemoryStorage{}
		s := support(storage)
		storage.Fail(SetItem)
		s.Begin(signIn)
		if got := s.Begin(edited); got != *first {
			t.Errorf("Begin again = %+v, want %+v", got, *first)
		}
		pendingIs(t, s.Pending(), first, "setItem failed")
	})
	t.Run("every call fails: one key until Finish", func(t *testing.T) {
		storage := &MemoryStorage{}
		s := support(storage)
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
		s := support(storage)
		s.Begin(signIn)
		storage.Fail(GetItem)
		pendingIs(t, s.Pending(), first, "getItem failed")
	})
	t.Run("getItem fails as a page opens: the entry is left for a later page", func(t *testing.T) {
		storage := &MemoryStorage{}
		support(storage).Begin(signIn)
		storage.Fail(GetItem)
		pendingIs(t, support(storage).Pending(), nil, "an unreadable storage")
		storage.Heal()
		pendingIs(t, support(storage).Pending(), first, "a later page that can read it")
	})
	t.Run("removeItem fails on Finish: the finished key is never offered again", func(t *testing.T) {
		storage := &MemoryStorage{}
		s := support(storage)
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
		s := support(storage)
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
		support(storage).Begin(signIn)
		pendingIs(t, support(storage).Pending(), nil, "the reloaded page")
	})
}
