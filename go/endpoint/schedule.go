// Package endpoint is exercise 06's harness in Go, as harness/endpoint/ is TypeScript's: what the two
// routes work with (endpoint.go: Options, a Store on PostgreSQL through pgx or in memory, the helpers), the
// schedules/endpoint files they play over HTTP, and the explorations: every crash point (crash.go), every
// overlap of two requests (overlaps.go) and random sequences against a model of the contract (property.go).
// The routes are the learner's, go/exercises/06-ticket-endpoint, handed in as a Code (tests.go).
package endpoint

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"workbook/handler"
	"workbook/schedules"
)

// Remember is what the server saves for a key: every first answer (Stripe, 500s included), or only successes.
type Remember string

// Values lists the policies.
func (Remember) Values() []string { return []string{"everything", "successes"} }

// RouteName is which route a request goes to.
type RouteName string

// Values lists the routes.
func (RouteName) Values() []string { return []string{"tickets", "webhooks"} }

// Paths maps each route to its path.
var Paths = map[RouteName]string{"tickets": "/api/tickets", "webhooks": "/webhooks"}

// Fault is what the harness does to one request.
type Fault string

// Values lists the faults a schedule may name.
func (Fault) Values() []string {
	return []string{"none", "before-commit", "after-commit", "step-fails", "held"}
}

// ExpectedAnswer is what one request must get back (Status nil: no answer at all).
type ExpectedAnswer struct {
	Status   *int    `json:"status" schedule:"nullable"`
	JSON     any     `json:"json,omitempty"`
	SameAs   int     `json:"sameAs,omitempty"`
	Replayed *bool   `json:"replayed,omitempty"`
	Problem  *string `json:"problem,omitempty"`
	Rule     string  `json:"rule,omitempty"`
}

// expectsMore says the answer names something besides its status.
func (a ExpectedAnswer) expectsMore() bool {
	return a.JSON != nil || a.SameAs != 0 || a.Replayed != nil || a.Problem != nil || a.Rule != ""
}

// Step is a send, a release or a wait; which fields it has depends on Do.
type Step struct {
	Do            string          `json:"do"`
	Note          string          `json:"note,omitempty"`
	Route         RouteName       `json:"route,omitempty"`
	Client        string          `json:"client,omitempty"`
	Authorization *string         `json:"authorization,omitempty"`
	Anonymous     bool            `json:"anonymous,omitempty"`
	Query         string          `json:"query,omitempty"`
	Key           *string         `json:"key,omitempty"`
	KeyLines      []string        `json:"keyLines,omitempty"`
	JSON          any             `json:"json,omitempty"`
	Text          *string         `json:"text,omitempty"`
	SubjectBytes  int             `json:"subjectBytes,omitempty"`
	Base64        *string         `json:"base64,omitempty"`
	ContentType   string          `json:"contentType,omitempty"`
	Fault         Fault           `json:"fault,omitempty"`
	Waits         bool            `json:"waits,omitempty"`
	Expect        *ExpectedAnswer `json:"expect,omitempty"`
	Request       int             `json:"request,omitempty"`
	Minutes       int             `json:"minutes,omitempty"`
}

// UnionTag is the field that picks a step's shape.
func (Step) UnionTag() string { return "do" }

// Shapes lists the fields each kind of step takes.
func (Step) Shapes() map[string]any {
	return map[string]any{
		"send": struct {
			Do            string         `json:"do"`
			Note          string         `json:"note,omitempty"`
			Route         RouteName      `json:"route"`
			Client        string         `json:"client,omitempty"`
			Authorization *string        `json:"authorization,omitempty"`
			Anonymous     bool           `json:"anonymous,omitempty"`
			Query         string         `json:"query,omitempty"`
			Key           *string        `json:"key,omitempty"`
			KeyLines      []string       `json:"keyLines,omitempty"`
			JSON          any            `json:"json,omitempty"`
			Text          *string        `json:"text,omitempty"`
			SubjectBytes  int            `json:"subjectBytes,omitempty"`
			Base64        *string        `json:"base64,omitempty"`
			ContentType   string         `json:"contentType,omitempty"`
			Fault         Fault          `json:"fault"`
			Waits         bool           `json:"waits,omitempty"`
			Expect        ExpectedAnswer `json:"expect"`
		}{},
		"release": struct {
			Do      string `json:"do"`
			Note    string `json:"note,omitempty"`
			Request int    `json:"request"`
		}{},
		"wait": struct {
			Do      string `json:"do"`
			Note    string `json:"note,omitempty"`
			Minutes int    `json:"minutes"`
		}{},
	}
}

// SavedKey is a key PostgreSQL holds at the end, with the status of its saved answer.
type SavedKey struct {
	Client string `json:"client,omitempty"`
	Key    string `json:"key"`
	Status int    `json:"status"`
}

// End is what PostgreSQL must hold after the last step.
type End struct {
	Tickets  []handler.Ticket  `json:"tickets"`
	Keys     []SavedKey        `json:"keys"`
	Receipts []handler.Receipt `json:"receipts"`
}

// Schedule is one file of schedules/endpoint.
type Schedule struct {
	schedules.Named
	Title          string     `json:"title"`
	Story          string     `json:"story"`
	Remember       []Remember `json:"remember"`
	RetentionHours float64    `json:"retentionHours,omitempty"`
	Steps          []Step     `json:"steps"`
	End            End        `json:"end"`
}

// Check holds a schedule to the rules its types can't say, as the TypeScript loader does
// (harness/endpoint/schedules.ts), in the same words. It names the first rule broken.
func (s *Schedule) Check() error {
	held := map[int]int{} // request number → the step that sent it
	waiting := []int{}
	sent := 0
	for i, step := range s.Steps {
		at := fmt.Sprintf("steps[%d]", i)
		switch step.Do {
		case "send":
			sent++
			var bodies []string
			if step.JSON != nil {
				bodies = append(bodies, "json")
			}
			if step.Text != nil {
				bodies = append(bodies, "text")
			}
			if step.SubjectBytes > 0 {
				bodies = append(bodies, "subjectBytes")
			}
			if step.Base64 != nil {
				bodies = append(bodies, "base64")
			}
			if len(bodies) != 1 {
				found := strings.Join(bodies, ", ")
				if found == "" {
					found = "none"
				}
				return &schedules.FieldError{Field: at, Problem: "give the body exactly one way: json, text, subjectBytes or base64 (found " + found + ")"}
			}
			if step.Key != nil && step.KeyLines != nil {
				return &schedules.FieldError{Field: at, Problem: "give the key one way: key or keyLines"}
			}
			if _, ok := Problems[step.Expect.Rule]; step.Expect.Rule != "" && !ok {
				return &schedules.FieldError{Field: at + ".expect.rule", Problem: fmt.Sprintf("no rule is called %q in rules.json", step.Expect.Rule)}
			}
			var who []string
			if step.Client != "" {
				who = append(who, "client")
			}
			if step.Authorization != nil {
				who = append(who, "authorization")
			}
			if step.Anonymous {
				who = append(who, "anonymous")
			}
			if len(who) > 1 {
				return &schedules.FieldError{Field: at, Problem: "say who sends it one way (found " + strings.Join(who, ", ") + ")"}
			}
			if step.Expect.SameAs >= sent {
				return &schedules.FieldError{Field: at + ".expect.sameAs", Problem: fmt.Sprintf("must name an earlier request (this is request %d)", sent)}
			}
			if step.Expect.Status == nil && step.Expect.expectsMore() {
				return &schedules.FieldError{Field: at + ".expect", Problem: "no answer arrives, so there is nothing else to expect"}
			}
			if step.Fault == "held" {
				held[sent] = i
			}
			if step.Waits {
				if len(held) == 0 {
					return &schedules.FieldError{Field: at + ".waits", Problem: "a request can only wait on one that is held"}
				}
				waiting = append(waiting, sent)
			}
		case "release":
			if _, ok := held[step.Request]; !ok {
				return &schedules.FieldError{Field: at + ".request", Problem: fmt.Sprintf("request %d was not sent held earlier, or was already released", step.Request)}
			}
			delete(held, step.Request)
			waiting = waiting[:0]
		}
	}
	// The lowest-numbered held request, so the same file always gets the same message.
	if numbers := slices.Sorted(maps.Keys(held)); len(numbers) > 0 {
		number := numbers[0]
		return &schedules.FieldError{Field: fmt.Sprintf("steps[%d].fault", held[number]), Problem: fmt.Sprintf("request %d is held and never released", number)}
	}
	if len(waiting) > 0 {
		return &schedules.FieldError{Field: "steps", Problem: fmt.Sprintf("request %d waits, but nothing is released after it", waiting[0])}
	}
	for i, ticket := range s.End.Tickets {
		if ticket.ID != i+1 {
			return &schedules.FieldError{Field: fmt.Sprintf("end.tickets[%d].id", i), Problem: fmt.Sprintf("tickets count up from 1: expected %d", i+1)}
		}
	}
	return nil
}
