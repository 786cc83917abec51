package client

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"workbook/handler"
	"workbook/schedules"
)

// ClientName is which client code a journey plays: the key store, or the given anti-pattern that makes
// a new key for every attempt.
type ClientName string

// Values lists the clients a journey may name.
func (ClientName) Values() []string { return []string{"key-store", "new-key-per-attempt"} }

// StepKind is what happens at one step of a journey.
type StepKind string

// Values lists the steps a journey may take.
func (StepKind) Values() []string {
	return []string{"type", "edit", "send", "release", "reload", "store", "break-storage"}
}

// Fate is what becomes of a request.
type Fate string

// Values lists the fates a journey may name.
func (Fate) Values() []string {
	return []string{"answered", "answer-lost", "request-lost", "held", "server-fails"}
}

// ExpectedReply is the endpoint's reply a journey expects (TicketID 0: null).
type ExpectedReply struct {
	Status   int  `json:"status"`
	TicketID int  `json:"ticketId" schedule:"nullable"`
	Replayed bool `json:"replayed"`
}

// ExpectedRequest is the request a Send must make: its key, its body, and the endpoint's reply (nil when
// it never reached the endpoint).
type ExpectedRequest struct {
	Key   string         `json:"key"`
	Body  TicketBody     `json:"body"`
	Reply *ExpectedReply `json:"reply"`
}

// Step is one thing that happens, and what every form shows afterwards. Which of the other fields it
// takes depends on Do.
type Step struct {
	Do      StepKind `json:"do"`
	Note    string   `json:"note,omitempty"`
	Form    *string  `json:"form,omitempty"`
	Subject *string  `json:"subject,omitempty"`
	// Locked says the form refuses this type or edit: its fields are locked while the outcome is unknown.
	Locked  *bool                `json:"locked,omitempty"`
	Fate    *Fate                `json:"fate,omitempty"`
	Request *ExpectedRequest     `json:"request,omitempty"`
	Number  *int                 `json:"number,omitempty"`
	Item    *string              `json:"item,omitempty"`
	Value   *string              `json:"value,omitempty"`
	Shows   map[string]FormState `json:"shows"`
}

// Journey is one file of schedules/client: a user at a support form, step by step.
type Journey struct {
	schedules.Named
	Title   string           `json:"title"`
	Story   string           `json:"story"`
	Client  ClientName       `json:"client"`
	Forms   []string         `json:"forms"`
	Steps   []Step           `json:"steps"`
	Tickets []handler.Ticket `json:"tickets"`
}

var stepFields = map[StepKind][]string{
	"type":          {"form", "subject"},
	"edit":          {"form", "subject"},
	"send":          {"form", "fate", "request"},
	"release":       {"number", "fate"},
	"reload":        {},
	"store":         {"item", "value"},
	"break-storage": {},
}

// optionalFields are the fields a kind of step may leave out: an edit the form takes says nothing, one it
// refuses says locked.
var optionalFields = map[StepKind][]string{"type": {"locked"}, "edit": {"locked"}}

var shownFields = map[FormKind][]string{
	"editing": {}, "sending": {}, "unsure": {"status"}, "created": {"ticketId"}, "refused": {"status"},
}

func (s Step) present() []string {
	var fields []string
	for name, set := range map[string]bool{
		"form": s.Form != nil, "subject": s.Subject != nil, "locked": s.Locked != nil, "fate": s.Fate != nil, "request": s.Request != nil,
		"number": s.Number != nil, "item": s.Item != nil, "value": s.Value != nil,
	} {
		if set {
			fields = append(fields, name)
		}
	}
	slices.Sort(fields)
	return fields
}

// Check holds a journey to what its types can't say: the fields each kind of step takes, forms that
// exist, held requests that are released once, a state for every form, and tickets counting up from 1.
func (j Journey) Check() error {
	fail := func(field, format string, args ...any) error {
		return &schedules.FieldError{Field: field, Problem: fmt.Sprintf(format, args...)}
	}
	held := map[int]int{} // request number → the step that sent it
	requests := 0
	for i, step := range j.Steps {
		at := fmt.Sprintf("steps[%d]", i)
		wanted := stepFields[step.Do]
		present := step.present()
		for _, field := range wanted {
			if !slices.Contains(present, field) {
				return fail(at+"."+field, "missing: a %s step needs it", step.Do)
			}
		}
		allowed := append(slices.Clone(wanted), optionalFields[step.Do]...)
		for _, field := range present {
			if !slices.Contains(allowed, field) {
				return fail(at+"."+field, "not a field of a %s step (it takes %s)", step.Do, orNone(allowed))
			}
		}
		if step.Form != nil && !slices.Contains(j.Forms, *step.Form) {
			return fail(at+".form", "%q is not one of the forms (%s)", *step.Form, strings.Join(j.Forms, ", "))
		}
		switch step.Do {
		case "send":
			requests++
			lost := *step.Fate == "request-lost"
			if lost != (step.Request.Reply == nil) {
				if lost {
					return fail(at+".request.reply", "must be null: the request never arrived")
				}
				return fail(at+".request.reply", "needs the reply")
			}
			if *step.Fate == "held" {
				held[requests] = i
			}
		case "release":
			if _, ok := held[*step.Number]; !ok {
				return fail(at+".number", "request %d was not sent held earlier, or was already released", *step.Number)
			}
			if *step.Fate == "held" || *step.Fate == "request-lost" {
				return fail(at+".fate", "a released request is answered, loses its answer, or fails")
			}
			delete(held, *step.Number)
		}
		var missing []string
		for _, form := range j.Forms {
			if _, ok := step.Shows[form]; !ok {
				missing = append(missing, form)
			}
		}
		if len(missing) > 0 {
			return fail(at+".shows", "says nothing about %s", strings.Join(missing, ", "))
		}
		for _, form := range slices.Sorted(maps.Keys(step.Shows)) {
			state := step.Shows[form]
			where := at + ".shows." + form
			if !slices.Contains(j.Forms, form) {
				return fail(where, "not one of the forms (%s)", strings.Join(j.Forms, ", "))
			}
			needs := shownFields[state.Kind]
			for _, field := range state.fields {
				if field != "kind" && !slices.Contains(needs, field) {
					return fail(where+"."+field, "not a field of %s", state.Kind)
				}
			}
			for _, field := range needs {
				if !slices.Contains(state.fields, field) {
					return fail(where+"."+field, "missing: %s needs it", state.Kind)
				}
			}
			if state.Kind == "refused" && state.Status == nil {
				return fail(where+".status", "a refusal has a status")
			}
		}
	}
	for number, step := range held {
		return fail(fmt.Sprintf("steps[%d].fate", step), "request %d is held and never released", number)
	}
	for i, ticket := range j.Tickets {
		if ticket.ID != i+1 {
			return fail(fmt.Sprintf("tickets[%d].id", i), "tickets count up from 1: expected %d", i+1)
		}
	}
	return nil
}

func orNone(fields []string) string {
	if len(fields) == 0 {
		return "none"
	}
	return strings.Join(fields, ", ")
}

// LoadJourneys reads every file of schedules/client.
func LoadJourneys() ([]Journey, error) {
	return schedules.Load[Journey]("client")
}
