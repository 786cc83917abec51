package client

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"workbook/core"
)

// Case is one of exercise 04's focused tests, told as its journeys are: the case, the call, what was
// expected against what the key store did, and what that usually means, in the words of
// harness/client/cases.ts (core.CaseStory).
type Case struct {
	t    *testing.T
	name string
}

// RunCase runs body as the subtest name, its failures told as that case.
func RunCase(t *testing.T, name string, body func(c Case)) {
	t.Helper()
	t.Run(name, func(t *testing.T) { body(Case{t, name}) })
}

// Check stops the case when got is not want: call says what was done, means what a difference usually
// means ("" for nothing to add).
func (c Case) Check(call string, got, want any, means string) {
	c.t.Helper()
	if !reflect.DeepEqual(got, want) {
		c.t.Fatal(core.CaseStory(c.name, call, Said(want), Said(got), means))
	}
}

// Said is a value as the journeys say it: a submission as its key and body, a form state as the form
// shows it, nothing for no submission.
func Said(value any) string {
	switch v := value.(type) {
	case nil:
		return "nothing"
	case *Pending[TicketBody]:
		if v == nil {
			return "nothing"
		}
		return Said(*v)
	case Pending[TicketBody]:
		subject, _ := json.Marshal(v.Body.Subject)
		if v.Key == "" {
			return "(an empty key) " + string(subject)
		}
		return v.Key + " " + string(subject)
	case FormState:
		return v.String()
	case string:
		return v
	case fmt.Stringer:
		return v.String()
	}
	text, err := json.Marshal(value)
	if err != nil {
		return fmt.Sprint(value)
	}
	return string(text)
}
