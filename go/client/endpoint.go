package client

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"workbook/handler"
)

// MaxKeyLength is the longest Idempotency-Key the endpoint takes: Stripe's 255 characters, counted as
// Unicode code points, as the TypeScript endpoint counts them (not bytes, not UTF-16 units). Exercise 06's
// endpoint (go/endpoint's MaxKeyLength, which the routes read) takes this rule from here.
const MaxKeyLength = 255

// KeyLength is a key's length in Unicode code points, the count MaxKeyLength limits: "é" is one, and so is
// "😀" (len would say 2 and 4).
func KeyLength(key string) int { return utf8.RuneCountInString(key) }

// Reply is the endpoint's answer: the HTTP status, the ticket (0: none), whether it is a saved answer
// handed back again, and why.
type Reply struct {
	Status   int
	TicketID int
	Replayed bool
	Reason   string
}

type request struct {
	key   string
	body  json.RawMessage
	reply *Reply
}

type saved struct {
	body  string
	reply Reply
}

type working struct {
	body   string
	number int
}

// TicketEndpoint is a fake POST /tickets that keeps the Idempotency-Key contract: the key is required,
// the first answer for a key is saved (in the same commit as the ticket) and replayed, a key still in
// flight gets 409, a key reused with another body gets 422. Use NewTicketEndpoint.
type TicketEndpoint struct {
	tenant   string
	tickets  []handler.Ticket
	saved    map[string]saved
	inFlight map[string]working
	seen     []request
	decided  map[int]Reply
}

// NewTicketEndpoint returns an endpoint that files tickets for the tenant.
func NewTicketEndpoint(tenant string) *TicketEndpoint {
	return &TicketEndpoint{tenant: tenant, saved: map[string]saved{}, inFlight: map[string]working{}, decided: map[int]Reply{}}
}

// Arrive takes a request: it is answered at once (a refusal, a conflict, a replay) or starts its work and
// stays in flight until Respond. It returns the request's number.
func (e *TicketEndpoint) Arrive(key string, body json.RawMessage) int {
	number := len(e.seen) + 1
	e.seen = append(e.seen, request{key: key, body: body})
	if early, ok := e.decide(key, body); ok {
		e.decided[number] = early
	} else {
		e.inFlight[key] = working{canonical(body), number}
	}
	return number
}

// Respond answers request number: it commits the ticket and the saved answer together, or, when
// failsBeforeCommit, dies first and answers 500 with nothing saved.
func (e *TicketEndpoint) Respond(number int, failsBeforeCommit bool) Reply {
	seen := &e.seen[number-1]
	if seen.reply != nil {
		panic(fmt.Sprintf("request %d was already answered", number))
	}
	work, started := e.inFlight[seen.key]
	started = started && work.number == number
	if started {
		delete(e.inFlight, seen.key)
	}
	var reply Reply
	switch {
	case failsBeforeCommit:
		reply = Reply{Status: 500, Reason: "the server failed before saving anything"}
	case !started:
		reply = e.decided[number]
	default:
		subject, _ := subjectOf(seen.body)
		ticket := handler.Ticket{ID: len(e.tickets) + 1, Tenant: e.tenant, Subject: subject}
		reply = Reply{Status: 201, TicketID: ticket.ID, Reason: "created"}
		e.tickets = append(e.tickets, ticket)
		e.saved[seen.key] = saved{work.body, reply}
	}
	seen.reply = &reply
	return reply
}

// Tickets returns a copy of the tickets.
func (e *TicketEndpoint) Tickets() []handler.Ticket { return append([]handler.Ticket{}, e.tickets...) }

// decide answers at once what needs no work. Refusals are not saved.
func (e *TicketEndpoint) decide(key string, body json.RawMessage) (Reply, bool) {
	refuse := func(status int, reason string) (Reply, bool) { return Reply{Status: status, Reason: reason}, true }
	if key == "" {
		return refuse(400, "the Idempotency-Key header is required")
	}
	if KeyLength(key) > MaxKeyLength {
		return refuse(400, fmt.Sprintf("the Idempotency-Key is longer than %d characters", MaxKeyLength))
	}
	if s, ok := e.saved[key]; ok {
		if s.body != canonical(body) {
			return refuse(422, "this key was already used with another body")
		}
		replay := s.reply
		replay.Replayed = true
		return replay, true
	}
	if w, ok := e.inFlight[key]; ok {
		if w.body != canonical(body) {
			return refuse(422, "this key is in use with another body")
		}
		return refuse(409, "a request with this key is still in progress")
	}
	if _, ok := subjectOf(body); !ok {
		return refuse(400, "the subject is required")
	}
	return Reply{}, false
}

// canonical is the same JSON whatever order the fields were written in, so two bodies compare by what
// they say. (encoding/json writes a map's keys sorted.)
func canonical(body json.RawMessage) string {
	var value any
	if json.Unmarshal(body, &value) != nil {
		return string(body)
	}
	text, _ := json.Marshal(value)
	return string(text)
}

func subjectOf(body json.RawMessage) (string, bool) {
	var fields map[string]any
	if json.Unmarshal(body, &fields) != nil {
		return "", false
	}
	subject, ok := fields["subject"].(string)
	return subject, ok && !IsBlank(subject)
}

// IsBlank says a subject is nothing but white space, by JavaScript's trim(), which the TypeScript endpoints
// use (isBlank in harness/endpoint/contract.ts): its white space and line terminators. Go's
// unicode.IsSpace, and so strings.TrimSpace, differs in two: it counts U+0085 (next line) and not U+FEFF
// (the byte order mark).
func IsBlank(text string) bool {
	return strings.TrimFunc(text, func(r rune) bool {
		return r == '\uFEFF' || (r != '\u0085' && unicode.IsSpace(r))
	}) == ""
}
