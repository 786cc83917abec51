package endpoint

// The words the schedule judge (play.go) says a request and the usual cause of a wrong answer in, as
// TypeScript's judge does (harness/endpoint/judge.ts): the same mistake reads the same in both languages.

import (
	"encoding/json"
	"fmt"
	"strings"
)

type sentStep struct {
	index int
	step  Step
}

func sendsOf(s Schedule) []sentStep {
	var all []sentStep
	for i, step := range s.Steps {
		if step.Do == "send" {
			all = append(all, sentStep{i, step})
		}
	}
	return all
}

func clientOfStep(step Step) string {
	if step.Client == "" {
		return DefaultClient
	}
	return step.Client
}

func sameStepBody(a, b Step) bool {
	read := func(step Step) string {
		text := bodyOf(step)
		var parsed any
		if json.Unmarshal([]byte(text), &parsed) != nil {
			return text
		}
		again, _ := json.Marshal(parsed)
		return string(again)
	}
	return read(a) == read(b)
}

// describeRequest is `request 2 (POST /api/tickets, from client "app", key "k-1" again, the same body)`.
func describeRequest(s Schedule, number int) string {
	all := sendsOf(s)
	send := all[number-1].step
	notes := []string{"POST " + Paths[send.Route]}
	if send.Route == "tickets" {
		var earlier []Step
		for _, other := range all[:number-1] {
			if send.Key != nil && other.step.Key != nil && *other.step.Key == *send.Key && other.step.Client == send.Client {
				earlier = append(earlier, other.step)
			}
		}
		switch {
		case send.Anonymous:
			notes = append(notes, "no Authorization")
		case send.Authorization != nil:
			notes = append(notes, fmt.Sprintf("Authorization %q", *send.Authorization))
		case send.Client != "":
			notes = append(notes, fmt.Sprintf("from client %q", send.Client))
		}
		if send.Query != "" {
			notes = append(notes, fmt.Sprintf("the query %q", send.Query))
		}
		switch {
		case send.KeyLines != nil:
			notes = append(notes, fmt.Sprintf("the key on %d header lines", len(send.KeyLines)))
		case send.Key == nil:
			notes = append(notes, "no Idempotency-Key")
		case *send.Key == "":
			notes = append(notes, "an empty Idempotency-Key")
		case len([]rune(*send.Key)) > 40:
			notes = append(notes, fmt.Sprintf("a key of %d characters", len([]rune(*send.Key))))
		case len(earlier) > 0:
			notes = append(notes, fmt.Sprintf("key %q again", *send.Key))
		default:
			notes = append(notes, fmt.Sprintf("key %q", *send.Key))
		}
		if len(earlier) > 0 {
			if sameStepBody(earlier[0], send) {
				notes = append(notes, "the same body")
			} else {
				notes = append(notes, "another body")
			}
		}
	}
	if send.Note != "" {
		notes = append(notes, send.Note)
	}
	faults := map[Fault]string{
		"before-commit": "the worker dies before its commit",
		"after-commit":  "its answer is lost after the commit",
		"step-fails":    "the ticket's insert fails",
		"held":          "held just before its commit",
	}
	if said, ok := faults[send.Fault]; ok {
		notes = append(notes, said)
	}
	if send.Waits {
		notes = append(notes, "while another request holds this key")
	}
	return fmt.Sprintf("request %d (%s)", number, strings.Join(notes, ", "))
}

// usualCause is the usual mistake behind a wrong answer, or "" when there is no usual one.
func usualCause(s Schedule, number int, got *answer) string {
	sent := sendsOf(s)[number-1]
	send, want := sent.step, *sent.step.Expect
	status, replayed := 0, false
	if got != nil {
		status, replayed = got.status, got.replayed
	}
	is := func(code int) bool { return want.Status != nil && *want.Status == code }
	waited := false
	for _, earlier := range s.Steps[:sent.index] {
		waited = waited || earlier.Do == "wait"
	}
	strangers := false
	for _, earlier := range sendsOf(s)[:number-1] {
		strangers = strangers || (send.Key != nil && earlier.step.Key != nil && *earlier.step.Key == *send.Key && clientOfStep(earlier.step) != clientOfStep(send))
	}
	wantReplayed := want.Replayed != nil && *want.Replayed
	notReplayed := want.Replayed != nil && !*want.Replayed
	switch {
	case is(500) && wantReplayed && status != 500:
		return `under remember: "everything" the failure is this key's answer, like Stripe: save it, and replay it to every retry.`
	case is(201) && got != nil && status >= 500:
		return `the failure was saved as this key's answer. Under remember: "successes" a failure is not saved, so a retry runs again.`
	case is(422) && status != 422:
		return "the same key with another body is another request: compare the body's fingerprint with the one saved with the key."
	case is(409) && status != 409:
		return "the first request with this key is still inside its transaction. The second must see that (LockKey) and answer 409, not wait or make a ticket."
	case want.Rule != "" && status != Problems[want.Rule].Status:
		rule := Problems[want.Rule]
		return fmt.Sprintf("this request breaks the rule %q (%s): refuse it with %d before any transaction, with Refuse(w, %q). 06's README explains it under %q.", want.Rule, rule.Detail, rule.Status, want.Rule, rule.Section)
	case is(400) && status != 400 && send.Key != nil:
		return fmt.Sprintf("a key must be there, not empty, at most %d characters, and free of control characters: refuse this one with 400 before doing any work.", MaxKeyLength)
	case notReplayed && replayed && strangers:
		return "another client sent this key before: a key belongs to the client that sent it, so look it up, lock it and save it by client and key. Else a stranger who guesses a key reads another client's answer."
	case notReplayed && replayed && waited:
		return "the key is older than the retention: it counts as forgotten, and this request is new. Is its age measured on the clock the routes are given (the schedule moves it), not on the machine's?"
	case wantReplayed && status == 201 && !replayed:
		return "the key was seen before, so this is a retry: find the saved record for the key (the Idempotency-Key the client sent) and send its answer back, not a new ticket."
	}
	var wantID, gotID struct {
		ID *int `json:"id"`
	}
	text, _ := json.Marshal(want.JSON)
	if got != nil && json.Unmarshal(text, &wantID) == nil && json.Unmarshal([]byte(got.body), &gotID) == nil &&
		wantID.ID != nil && gotID.ID != nil && *gotID.ID > *wantID.ID {
		return "a ticket number that counts one too many: a ticket was kept from a request that should have left nothing."
	}
	return ""
}
