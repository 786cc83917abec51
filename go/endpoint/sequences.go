package endpoint

// The request sequences the explorations play, the Go twin of harness/endpoint/sequences.ts: every
// endpoint and handler schedule as a sequence, and random ones that reuse keys and event ids, reorder and
// add fields, wait around the retention, and retry the request before: its fields reversed or its body
// changed (a field added, removed or changed, deep inside too), now, exactly when its retention ends, or
// after a replay part way there.
//
//	all, err := scheduleSequences()                  // each endpoint schedule under each policy it names,
//	                                                 // and each handler schedule sent to POST /webhooks
//	sequence := randomSequence(rand.New(rand.NewPCG(seed, 0)), 8)   // a first step and 2 to 7 draws
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
	// extras are the fields a ticket's body may have besides its subject, in pairs (each the other's changed
	// value), one deep inside an object, as TypeScript's: a fingerprint blind to nested fields meets a body it
	// takes for the same.
	extras = []string{
		`"priority":"high"`, `"priority":"low"`,
		`"tags":["vip"]`, `"tags":["vip","urgent"]`,
		`"customer":{"plan":"pro"}`, `"customer":{"plan":"free"}`,
		`"customer":{"plan":"pro","since":2019}`, `"customer":{"plan":"pro","since":2024}`,
	}
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
	fields, ok := fieldsOf(text)
	if !ok {
		return text
	}
	slices.Reverse(fields)
	return "{" + strings.Join(fields, ",") + "}"
}

// fieldsOf is a JSON object's fields, each as written ("name":value); false for any other text.
func fieldsOf(text string) ([]string, bool) {
	d := json.NewDecoder(strings.NewReader(text))
	if open, err := d.Token(); err != nil || open != json.Delim('{') {
		return nil, false
	}
	fields := []string{}
	for d.More() {
		name, err := d.Token()
		var value json.RawMessage
		if err != nil || d.Decode(&value) != nil {
			return nil, false
		}
		quoted, _ := json.Marshal(name)
		fields = append(fields, string(quoted)+":"+string(value))
	}
	return fields, true
}

// changed is the same request with another body, as TypeScript's changed (sequences.ts): as a client that
// reuses its key for another request sends it, a field more (extras[how]); or, where it has one, that
// field gone (one in four) or changed to its pair's value, deep inside an object too; or, for an event,
// another subject. A ticket's subject stays, so only a fingerprint over
// the whole body tells the two apart.
func changed(c Call, how int) Call {
	c.StepFails = false
	fields, ok := fieldsOf(c.Body)
	if !ok {
		return c
	}
	extra := slices.IndexFunc(fields, func(f string) bool { return !strings.HasPrefix(f, `"subject":`) })
	switch {
	case c.Route == "webhooks":
		var event handler.Webhook
		_ = json.Unmarshal([]byte(c.Body), &event)
		others := slices.DeleteFunc(slices.Clone(subjects), func(s string) bool { return s == event.Subject })
		at := slices.IndexFunc(fields, func(f string) bool { return strings.HasPrefix(f, `"subject":`) })
		fields[at] = `"subject":` + strconv.Quote(others[how%len(others)])
	case extra < 0:
		fields = append(fields, extras[how%len(extras)])
	case how%4 == 0:
		fields = slices.Delete(fields, extra, extra+1)
	default:
		fields[extra] = extras[slices.Index(extras, fields[extra])^1]
	}
	c.Body = "{" + strings.Join(fields, ",") + "}"
	return c
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

// againDraw is a retry drawn, as TypeScript's Again (sequences.ts): at is "now", "at the retention" or
// "twice"; change is how its body changes (changed), or -1 for the same body, its fields reversed; fails
// makes a ticket's retry fail its insert too, as the first may have (a request new again after an expiry
// meets the failure path with the expired key still in the table).
type againDraw struct {
	at     string
	change int
	fails  bool
}

// randomAgain draws a retry as TypeScript's againDraw: twice half the time, else now or at the retention;
// the same body half the time, else one of eight changes; failing half the time.
func randomAgain(r *rand.Rand) againDraw {
	a := againDraw{at: "twice", change: -1}
	if r.IntN(2) == 0 {
		a.at = pick(r, []string{"now", "at the retention"})
	}
	if r.IntN(2) == 0 {
		a.change = r.IntN(len(extras))
	}
	a.fails = r.IntN(2) == 0
	return a
}

// remembered is whether the server keeps what the request is remembered under: not a failed insert, unless
// it remembers everything.
func remembered(c Call, remember Remember) bool { return !c.StepFails || remember == "everything" }

// again is the steps a retry of the request before it adds after the steps so far, as TypeScript's again
// (sequences.ts): the retry is the same body, its fields reversed, or another (changed), its insert failing
// when the draw says so; at "now" it is sent
// at once; "at the retention" first waits to the end of the retention of what it retries (its key's, or its
// event's receipt's, counted from the first request under it since the last expiry that the server
// remembers) when that end is still ahead; "twice" waits half of that, sends the same body (a replay, which
// must not renew the retention) and the retry, then waits the rest and sends the retry again. None when no
// request was sent yet. An expiry is a boundary, and a wait drawn at random rarely lands on it.
func again(steps []Call, remember Remember, retentionHours int, a againDraw) []Call {
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
		case rememberedAs(step) == rememberedAs(steps[last]) && remembered(step, remember) && (since < 0 || now-since >= retention):
			since = now
		}
	}
	// Nothing under it is remembered yet (a failed insert the server forgets): no retention to wait for.
	left := 0
	if since >= 0 {
		left = since + retention - now
	}
	retry := retried(steps[last])
	if a.change >= 0 {
		retry = changed(steps[last], a.change)
	}
	retry.StepFails = a.fails && retry.Route == "tickets"
	var added []Call
	wait := func(minutes int) {
		if minutes > 0 {
			added = append(added, Call{Do: "wait", Minutes: minutes})
		}
	}
	switch {
	case a.at == "now":
	case a.at == "twice" && left > 1:
		half := left / 2
		wait(half)
		added = append(added, retried(steps[last]))
		if a.change >= 0 {
			added = append(added, retry)
		}
		wait(left - half)
	default:
		wait(left)
	}
	return append(added, retry)
}

// randomSequence is a policy, a retention of 1 to 48 hours, and a first step, then 2 to most-1 draws, each
// (one in two, as TypeScript's sequenceDraw) a retry of the request before it played out as the steps it
// adds, or another step.
func randomSequence(r *rand.Rand, most int) Sequence {
	s := Sequence{Remember: pick(r, []Remember{"everything", "successes"}), RetentionHours: 1 + r.IntN(48)}
	s.Steps = append(s.Steps, randomStep(r, s.RetentionHours))
	for range 2 + r.IntN(most-2) {
		if r.IntN(2) == 0 {
			s.Steps = append(s.Steps, again(s.Steps, s.Remember, s.RetentionHours, randomAgain(r))...)
		} else {
			s.Steps = append(s.Steps, randomStep(r, s.RetentionHours))
		}
	}
	return s
}
