package endpoint

// Requests handed to the routes directly, with no HTTP between: what the crash points, the overlaps and the
// model-based property play (crash.go, overlaps.go, property.go), and how they are said. The Go twin of
// harness/endpoint/calls.ts, in its words.
//
//	sequence := Sequence{Remember: "everything", RetentionHours: 24, Steps: []Call{
//		{Do: "send", Route: "tickets", Key: "k-1", Body: `{"subject":"Printer on fire"}`},
//		{Do: "wait", Minutes: 25 * 60}}}
//	routes := buildRoutes(code, sequence, store, &clock)   // code.Tickets(options) and code.Webhooks(options)
//	got := send(routes, sequence.Steps[0])           // Answer{Status, Body, Replayed}
//	saidSend(sequence.Steps, 0)                      // `request 1 (POST /api/tickets, key "k-1", …)`

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"strings"
	"time"

	"workbook/core"
)

// Call is one step of a sequence: a request ("send"; Key "" sends none; Body is the JSON text, its fields
// in the order written; StepFails makes the ticket's insert fail) or a wait ("wait", Minutes).
type Call struct {
	Do        string
	Route     RouteName
	Key       string
	Body      string
	StepFails bool
	Minutes   int
}

// Sequence is calls played one after another on one store, under one policy and retention.
type Sequence struct {
	Remember       Remember
	RetentionHours int
	Steps          []Call
}

// Answer is what a route answered. Panicked, when the route panicked instead, says with what and where:
// then nothing reached the client.
type Answer struct {
	Status   int
	Body     string
	Replayed bool
	Panicked string
}

// Code is the two routes under test, as the learner writes them (go/exercises/06-ticket-endpoint): what
// every player and exploration here is handed, so the stub's tests and the solution's are the same calls.
//
//	code := endpoint.Code{Tickets: Tickets, Webhooks: Webhooks}
type Code struct {
	Tickets  func(Options) http.Handler
	Webhooks func(Options) http.Handler
}

// Routes are the two routes, by name.
type Routes map[RouteName]http.Handler

// buildRoutes makes both routes of the code on the store, with the sequence's policy and retention and the
// clock's time.
func buildRoutes(code Code, sequence Sequence, store Store, clock *time.Time) Routes {
	options := Options{
		Store:     store,
		Remember:  sequence.Remember,
		Retention: time.Duration(sequence.RetentionHours) * time.Hour,
		Now:       func() time.Time { return *clock },
		Tenant:    "acme",
	}
	return Routes{"tickets": code.Tickets(options), "webhooks": code.Webhooks(options)}
}

// send hands the call to its route, as 04's form sends it, and reads the answer. A route that panics gets
// no answer to the client, told as TypeScript's "your route threw" is; a stub's panic goes on as it was.
func send(routes Routes, c Call) (got Answer) {
	defer func() {
		if p := recover(); p != nil {
			if _, stub := p.(core.NotWrittenYet); stub {
				panic(p)
			}
			got = Answer{Panicked: panicked(p, debug.Stack())}
		}
	}()
	request := httptest.NewRequest(http.MethodPost, Paths[c.Route], strings.NewReader(c.Body))
	request.Header.Set("Content-Type", "application/json")
	request.Header.Set("Authorization", "Bearer "+DefaultClient)
	if c.Key != "" {
		request.Header.Set(KeyHeader, c.Key)
	}
	recorded := httptest.NewRecorder()
	routes[c.Route].ServeHTTP(recorded, request)
	return Answer{Status: recorded.Code, Body: recorded.Body.String(), Replayed: recorded.Header().Get("Idempotent-Replayed") == "true"}
}

// sameBody says whether two bodies say the same, whatever their fields' order.
func sameBody(a, b string) bool {
	var x, y any
	_ = json.Unmarshal([]byte(a), &x)
	_ = json.Unmarshal([]byte(b), &y)
	return Fingerprint(x) == Fingerprint(y)
}

// saidSend is `request 2 (POST /api/tickets, key "k-1" again, another body: {"subject":"Printer","x":1})`.
func saidSend(steps []Call, index int) string {
	c := steps[index]
	number, first := 0, -1
	for i, earlier := range steps[:index+1] {
		if earlier.Do == "send" {
			number++
			if i < index && first < 0 && earlier.Route == "tickets" && earlier.Key == c.Key {
				first = i
			}
		}
	}
	notes := []string{"POST " + Paths[c.Route]}
	switch {
	case c.Route != "tickets":
		notes = append(notes, c.Body)
	case c.Key == "":
		notes = append(notes, "no Idempotency-Key", c.Body)
	case first < 0:
		notes = append(notes, fmt.Sprintf("key %q", c.Key), c.Body)
	case sameBody(steps[first].Body, c.Body):
		notes = append(notes, fmt.Sprintf("key %q again", c.Key), "the same body: "+c.Body)
	default:
		notes = append(notes, fmt.Sprintf("key %q again", c.Key), "another body: "+c.Body)
	}
	if c.StepFails {
		notes = append(notes, "the ticket's insert fails")
	}
	return fmt.Sprintf("request %d (%s)", number, strings.Join(notes, ", "))
}

func saidStep(steps []Call, index int) string {
	if steps[index].Do == "send" {
		return saidSend(steps, index)
	}
	if minutes := steps[index].Minutes; minutes%60 != 0 {
		return fmt.Sprintf("wait %d minutes", minutes)
	}
	return fmt.Sprintf("wait %d hours", steps[index].Minutes/60)
}

// saidSequence is the whole sequence, one step a line, with its settings: the words a failure prints.
func saidSequence(s Sequence) string {
	lines := []string{fmt.Sprintf("remember: %q, retentionHours: %d", s.Remember, s.RetentionHours)}
	for i := range s.Steps {
		lines = append(lines, fmt.Sprintf("  %d. %s", i+1, saidStep(s.Steps, i)))
	}
	return strings.Join(lines, "\n")
}

// panicked is a route's panic in a line: its value, and the line of 06's file it came from when the stack
// holds one ("runtime error: …, at endpoint.go:123").
func panicked(value any, stack []byte) string {
	for _, line := range strings.Split(string(stack), "\n") {
		if at := strings.Index(line, "06-ticket-endpoint/"); at >= 0 && strings.HasPrefix(line, "\t") {
			where, _, _ := strings.Cut(line[at+len("06-ticket-endpoint/"):], " ")
			return fmt.Sprintf("%v, at %s", value, where)
		}
	}
	return fmt.Sprint(value)
}

// saidAnswer is `201 {"id":1}`, `200 {"id":1} (replayed)`, "no answer", or what the route panicked with.
func saidAnswer(a *Answer) string {
	if a == nil {
		return "no answer"
	}
	if a.Panicked != "" {
		return "no answer: your route panicked: " + a.Panicked
	}
	body := a.Body
	if runes := []rune(body); len(runes) > 70 {
		body = string(runes[:67]) + "…"
	}
	if a.Replayed {
		body += " (replayed)"
	}
	return fmt.Sprintf("%d %s", a.Status, body)
}
