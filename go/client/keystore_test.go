package client

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func counter() func() string {
	n := 0
	return func() string { n++; return "key-" + string(rune('0'+n)) }
}

func TestSubmissions(t *testing.T) {
	body := TicketBody{Subject: "Cannot sign in"}
	tests := []struct {
		name    string
		steps   func(s *Submissions[TicketBody], storage *MemoryStorage) []string // the keys Begin handed out
		want    []string
		storage string // what the form's entry holds at the end ("" for none)
	}{
		{"Send pressed twice keeps the key", func(s *Submissions[TicketBody], _ *MemoryStorage) []string {
			return []string{s.Begin(body).Key, s.Begin(TicketBody{Subject: "edited"}).Key}
		}, []string{"key-1", "key-1"}, `{"key":"key-1","body":{"subject":"Cannot sign in"}}`},
		{"a definite answer makes the next Send new", func(s *Submissions[TicketBody], _ *MemoryStorage) []string {
			first := s.Begin(body).Key
			AfterAnswer(s, Answer{Replied: true, Status: 201, TicketID: 1})
			return []string{first, s.Begin(body).Key}
		}, []string{"key-1", "key-2"}, `{"key":"key-2","body":{"subject":"Cannot sign in"}}`},
		{"no answer and a 500 keep the key", func(s *Submissions[TicketBody], _ *MemoryStorage) []string {
			first := s.Begin(body).Key
			AfterAnswer(s, NoAnswer)
			second := s.Begin(body).Key
			AfterAnswer(s, Answer{Replied: true, Status: 500})
			return []string{first, second, s.Begin(body).Key}
		}, []string{"key-1", "key-1", "key-1"}, `{"key":"key-1","body":{"subject":"Cannot sign in"}}`},
		{"a full storage still keeps the key on this page", func(s *Submissions[TicketBody], storage *MemoryStorage) []string {
			storage.Fail()
			return []string{s.Begin(body).Key, s.Begin(body).Key}
		}, []string{"key-1", "key-1"}, ""},
		{"a damaged entry is nothing pending, and is discarded", func(s *Submissions[TicketBody], storage *MemoryStorage) []string {
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

func TestTheEndpointKeepsTheKeyContract(t *testing.T) {
	e := NewTicketEndpoint("acme")
	body := []byte(`{"subject":"Cannot sign in"}`)
	held := e.Arrive("k1", body)
	tests := []struct {
		name   string
		key    string
		body   string
		status int
	}{
		{"the same key while the first is in flight", "k1", `{"subject":"Cannot sign in"}`, 409},
		{"the same key with another body", "k1", `{"subject":"Other"}`, 422},
		{"no key", "", `{"subject":"Cannot sign in"}`, 400},
		{"no subject", "k2", `{"subject":"  "}`, 400},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			if reply := e.Respond(e.Arrive(test.key, []byte(test.body)), false); reply.Status != test.status {
				t.Errorf("status %d (%s), want %d", reply.Status, reply.Reason, test.status)
			}
		})
	}
	if reply := e.Respond(held, false); reply.Status != 201 || reply.TicketID != 1 {
		t.Fatalf("the first request got %+v", reply)
	}
	// Field order doesn't matter: the body is compared by what it says.
	replay := e.Respond(e.Arrive("k1", []byte(` { "subject" : "Cannot sign in" } `)), false)
	if replay != (Reply{Status: 201, TicketID: 1, Replayed: true, Reason: "created"}) {
		t.Errorf("a retry got %+v, want ticket 1 replayed", replay)
	}
}

func TestAfterAnswerReadsTheStatusFamily(t *testing.T) {
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

// TestKeyLengthAndBlankSubjectAsTypeScriptCounts: a key's 255 characters are code points, and a blank
// subject is white space by JavaScript's trim(), so both endpoints answer every request alike.
func TestKeyLengthAndBlankSubjectAsTypeScriptCounts(t *testing.T) {
	signIn := []byte(`{"subject":"Cannot sign in"}`)
	for _, character := range []string{"é", "😀"} {
		e := NewTicketEndpoint("acme")
		if reply := e.Respond(e.Arrive(strings.Repeat(character, MaxKeyLength), signIn), false); reply.Status != 201 {
			t.Errorf("a key of %d %q got %d, want 201", MaxKeyLength, character, reply.Status)
		}
		if reply := e.Respond(e.Arrive(strings.Repeat(character, MaxKeyLength+1), signIn), false); reply.Status != 400 {
			t.Errorf("a key of %d %q got %d, want 400", MaxKeyLength+1, character, reply.Status)
		}
	}
	subjects := []struct {
		subject string
		status  int
	}{
		{"\u00a0\u2003\u3000", 400},
		{"\ufeff \u2028", 400},
		{"\t\n\v\f\r", 400},
		{"\u0085", 201}, // next line: white space to unicode.IsSpace, not to trim()
		{"\u200b", 201}, // a zero-width space is not white space
	}
	for _, test := range subjects {
		e := NewTicketEndpoint("acme")
		body, _ := json.Marshal(map[string]string{"subject": test.subject})
		if reply := e.Respond(e.Arrive("k", body), false); reply.Status != test.status {
			t.Errorf("subject %q got %d, want %d", test.subject, reply.Status, test.status)
		}
	}
}

// TestTheFormLocksItsFieldsWhileUnsure: train-reload's edit comes while the outcome is unknown, so the
// form refuses it and the retry sends what was sent; a journey that says otherwise fails, naming the step.
func TestTheFormLocksItsFieldsWhileUnsure(t *testing.T) {
	all, err := LoadJourneys()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range all {
		if j.Name != "train-reload" {
			continue
		}
		got := play(j)
		if !got.steps[3].locked || got.requests[1].body["subject"] != "Cannot sign in" {
			t.Errorf("step 4 locked: %v, request 2 sent %v; want the edit refused and the first body sent", got.steps[3].locked, got.requests[1].body)
		}
		unlocked := j
		unlocked.Steps = slices.Clone(j.Steps)
		unlocked.Steps[3].Locked = nil
		if problem := judge(unlocked, play(unlocked)); !strings.Contains(problem, "step 4") || !strings.Contains(problem, "the form refused this edit") {
			t.Errorf("a journey expecting the edit taken was judged:\n%s", problem)
		}
		return
	}
	t.Fatal("no train-reload journey")
}
