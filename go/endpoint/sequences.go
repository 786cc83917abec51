package endpoint

// The request sequences the explorations play, the Go twin of harness/endpoint/sequences.ts: every
// endpoint and handler schedule as a sequence, and random ones that reuse keys and event ids, reorder and
// add fields, wait around the retention, and retry the request before, its fields reversed, now or exactly
// when its retention ends.
//
//	all, err := scheduleSequences()                  // each endpoint schedule under each policy it names,
//	                                                 // and each handler schedule sent to POST /webhooks
//	sequence := randomSequence(rand.New(rand.NewPCG(seed, 0)), 8)   // at most 8 steps
//
// A schedule's faults are left out (the crash points stop a request at every step, not only at the
// schedule's), but for "step-fails"; so are bodies that are not JSON, which never reach the store.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"workbook/handler"
	"workbook/schedules"
)

// namedSequence is a sequence with the words that say where it comes from.
type namedSequence struct {
	name     string
	sequence Sequence
}

func scheduleSequences() ([]namedSequence, error) {
	endpoints, err := schedules.Load[Schedule]("endpoint")
	if err != nil {
		return nil, err
	}
	deliveries, err := schedules.Load[handler.Schedule]("handler")
	if err != nil {
		return nil, err
	}
	var all []namedSequence
	for _, s := range endpoints {
		for _, remember := range s.Remember {
			sequence := Sequence{Remember: remember, RetentionHours: 24}
			if s.RetentionHours > 0 {
				sequence.RetentionHours = int(s.RetentionHours)
			}
			for _, step := range s.Steps {
				switch {
				case step.Do == "wait":
					sequence.Steps = append(sequence.Steps, Call{Do: "wait", Minutes: step.Minutes})
				case step.Do == "send" && step.JSON != nil && step.ContentType == "":
					body, _ := json.Marshal(step.JSON)
					c := Call{Do: "send", Route: step.Route, Body: string(body), StepFails: step.Fault == "step-fails"}
					if step.Key != nil {
						c.Key = *step.Key
					}
					sequence.Steps = append(sequence.Steps, c)
				}
			}
			all = append(all, namedSequence{fmt.Sprintf("schedule %q (remember: %s)", s.Name, remember), sequence})
		}
	}
	for _, s := range deliveries {
		sequence := Sequence{Remember: "everything", RetentionHours: 24}
		for _, delivery := range s.Deliveries {
			body, _ := json.Marshal(delivery.Event)
			sequence.Steps = append(sequence.Steps, Call{Do: "send", Route: "webhooks", Body: string(body)})
		}
		all = append(all, namedSequence{fmt.Sprintf("handler schedule %q on POST /webhooks", s.Name), sequence})
	}
	// A policy matters only where a step fails, a retention only where the clock moves: the same play once.
	seen := map[string]bool{}
	var distinct []namedSequence
	for _, named := range all {
		fails, waits := false, false
		for _, step := range named.sequence.Steps {
			fails = fails || step.StepFails
			waits = waits || step.Do == "wait"
		}
		policy, retention := any(""), any("")
		if fails {
			policy = named.sequence.Remember
		}
		if waits {
			retention = named.sequence.RetentionHours
		}
		said, _ := json.Marshal([]any{policy, retention, named.sequence.Steps})
		if !seen[string(said)] {
			seen[string(said)] = true
			distinct = append(distinct, named)
		}
	}
	return distinct, nil
}

var (
	subjects = []string{"Printer on fire", "Cannot sign in", "printer on fire"}
	keys     = []string{"k-1", "k-2", "k-3"}
	extras   = []string{`"priority":"high"`, `"priority":"low"`, `"tags":["vip"]`}
)

// ticketBody is a subject, perhaps a field more, the fields in either order, as JSON text.
func ticketBody(subject, extra string, extraFirst bool) string {
	field := `"subject":` + strconv.Quote(subject)
	switch {
	case extra == "":
		return "{" + field + "}"
	case extraFirst:
		return "{" + extra + "," + field + "}"
	}
	return "{" + field + "," + extra + "}"
}

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

// randomStep is one step, weighed as TypeScript's sequenceStep: five tickets, two webhooks, two waits; a
// wait lands just before, at or after the retention, or is short.
func randomStep(r *rand.Rand, retentionHours int) Call {
	switch n := r.IntN(9); {
	case n < 5:
		extra := ""
		if r.IntN(2) == 0 {
			extra = pick(r, extras)
		}
		body := ticketBody(pick(r, subjects), extra, r.IntN(2) == 0)
		return Call{Do: "send", Route: "tickets", Key: pick(r, keys), Body: body, StepFails: r.IntN(2) == 0}
	case n < 7:
		event := handler.Webhook{Tenant: "acme", Source: "helpdesk", EventID: pick(r, []string{"evt-42", "evt-43"}), Subject: pick(r, subjects)}
		body, _ := json.Marshal(event)
		return Call{Do: "send", Route: "webhooks", Body: string(body)}
	}
	minutes := retentionHours * 60
	return Call{Do: "wait", Minutes: pick(r, []int{5, minutes - 1, minutes, minutes + 1, 90})}
}

// retried is the same request sent again, as a client retries it: its route and key, its body's fields
// written in the other order (still the same body), and no step failing this time.
func retried(c Call) Call {
	c.StepFails = false
	c.Body = reversedFields(c.Body)
	return c
}

// reversedFields is a JSON object's text with its fields in the other order, each value as it was written;
// any other text as it is.
func reversedFields(text string) string {
	d := json.NewDecoder(strings.NewReader(text))
	if open, err := d.Token(); err != nil || open != json.Delim('{') {
		return text
	}
	var fields []string
	for d.More() {
		name, err := d.Token()
		var value json.RawMessage
		if err != nil || d.Decode(&value) != nil {
			return text
		}
		quoted, _ := json.Marshal(name)
		fields = append(fields, string(quoted)+":"+string(value))
	}
	slices.Reverse(fields)
	return "{" + strings.Join(fields, ",") + "}"
}

// rememberedAs is what a request is remembered under: its route's key, or its event.
func rememberedAs(c Call) string {
	if c.Route == "tickets" {
		return "key " + c.Key
	}
	var event handler.Webhook
	_ = json.Unmarshal([]byte(c.Body), &event)
	return "event " + handler.SaidIdentity(event)
}

// again is the steps a retry of the request before it adds after the steps so far, as TypeScript's again
// (sequences.ts): the wait to the end of the retention of what it retries (its key's, or its event's
// receipt's, counted from the first request under it since the last expiry) when atRetention asks for one
// and that end is still ahead, then the request retried. None when no request was sent yet. An expiry is a
// boundary, and a wait drawn at random rarely lands on it between a request and its repeat.
func again(steps []Call, retentionHours int, atRetention bool) []Call {
	last := -1
	for i, step := range steps {
		if step.Do == "send" {
			last = i
		}
	}
	if last < 0 {
		return nil
	}
	retention, now, since := retentionHours*60, 0, -1
	for _, step := range steps {
		switch {
		case step.Do == "wait":
			now += step.Minutes
		case rememberedAs(step) == rememberedAs(steps[last]) && (since < 0 || now-since >= retention):
			since = now
		}
	}
	var added []Call
	if left := since + retention - now; atRetention && left > 0 {
		added = append(added, Call{Do: "wait", Minutes: left})
	}
	return append(added, retried(steps[last]))
}

// randomSequence is a policy, a retention of 1 to 48 hours, and 1 to most steps: a first step, then draws,
// each (one in five, as TypeScript's sequenceDraw) a retry of the request before it played out as the steps
// it adds, or another step.
func randomSequence(r *rand.Rand, most int) Sequence {
	s := Sequence{Remember: pick(r, []Remember{"everything", "successes"}), RetentionHours: 1 + r.IntN(48)}
	s.Steps = append(s.Steps, randomStep(r, s.RetentionHours))
	for range r.IntN(most) {
		if r.IntN(5) == 0 {
			s.Steps = append(s.Steps, again(s.Steps, s.RetentionHours, r.IntN(2) == 0)...)
		} else {
			s.Steps = append(s.Steps, randomStep(r, s.RetentionHours))
		}
	}
	return s
}
