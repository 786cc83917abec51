package client

import (
	"encoding/json"
	"strings"
	"testing"
)

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
