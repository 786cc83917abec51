package client

import (
	"encoding/json"
	"fmt"
)

// FormKind is what a form shows.
type FormKind string

// Values lists the kinds a journey may name.
func (FormKind) Values() []string {
	return []string{"editing", "sending", "unsure", "created", "refused"}
}

// FormState is what a form shows: one value, so it can't be created and unsure at once. Status is the
// HTTP status of unsure (nil: no answer at all) and refused; TicketID is created's ticket.
type FormState struct {
	Kind     FormKind `json:"kind"`
	Status   *int     `json:"status,omitempty" schedule:"nullable"`
	TicketID *int     `json:"ticketId,omitempty" schedule:"nullable"`
	// fields lists the fields a journey file wrote, so the loader can tell null from missing.
	fields []string
}

// Editing, Sending and UnsureNoAnswer are states of the form; Unsure, Created and Refused make the others.
var (
	Editing = FormState{Kind: "editing"}
	Sending = FormState{Kind: "sending"}
	// UnsureNoAnswer is a request whose reply never came: it may exist or not.
	UnsureNoAnswer = FormState{Kind: "unsure"}
)

// Unsure is a reply whose status leaves the outcome open (409, 5xx, a redirect).
func Unsure(status int) FormState { return FormState{Kind: "unsure", Status: &status} }

// Created is a ticket the endpoint made (ticketID 0: it named none).
func Created(ticketID int) FormState {
	if ticketID == 0 {
		return FormState{Kind: "created"}
	}
	return FormState{Kind: "created", TicketID: &ticketID}
}

// Refused is a definite no, with its status.
func Refused(status int) FormState { return FormState{Kind: "refused", Status: &status} }

// String says the state in the lesson's words: "unsure (HTTP 500)", "created #1".
func (f FormState) String() string {
	switch f.Kind {
	case "sending":
		return "sending…"
	case "unsure":
		if f.Status == nil {
			return "unsure (no answer)"
		}
		return fmt.Sprintf("unsure (HTTP %d)", *f.Status)
	case "created":
		if f.TicketID == nil {
			return "created"
		}
		return fmt.Sprintf("created #%d", *f.TicketID)
	case "refused":
		if f.Status == nil {
			return "refused"
		}
		return fmt.Sprintf("refused (HTTP %d)", *f.Status)
	}
	return string(f.Kind)
}

// UnmarshalJSON reads a state and remembers which fields the file wrote.
func (f *FormState) UnmarshalJSON(data []byte) error {
	type plain FormState
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*f = FormState(p)
	for name := range fields {
		f.fields = append(f.fields, name)
	}
	return nil
}
