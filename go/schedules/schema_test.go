package schedules

import (
	"strings"
	"testing"
)

// bare is a schedule type that holds nothing but its name: the schema check runs before Go's types, so
// what it refuses is refused whatever the type.
type bare struct{ Named }

// TestTheSchemaFilesConstrainTheGoLoader: what the JSON Schema files allow beyond shapes (minimum,
// length, pattern, array sizes, unique items, const) binds the Go loader as it binds TypeScript's.
func TestTheSchemaFilesConstrainTheGoLoader(t *testing.T) {
	tests := []struct {
		name, kind, from string
		change           func(s map[string]any)
		says             string
	}{
		{"a ticket id of 0", "handler", "one-delivery", func(s map[string]any) {
			outcome(s, "receipt-in-commit")["ticketId"] = 0
		}, "expect.receipt-in-commit.outcomes[0].ticketId: must be >= 1"},
		{"an empty title", "handler", "one-delivery", func(s map[string]any) { s["title"] = "" },
			"title: must NOT have fewer than 1 characters"},
		{"no deliveries", "handler", "one-delivery", func(s map[string]any) { s["deliveries"] = []any{} },
			"deliveries: must NOT have fewer than 1 items"},
		{"beyond set to false", "handler", "one-delivery", func(s map[string]any) { s["beyond"] = false },
			"beyond: must be equal to constant"},
		{"an order of 0", "handler", "one-delivery", func(s map[string]any) { s["order"] = 0 },
			"order: must be >= 1"},
		{"a worker named in lower case", "race", "two-workers-alternate", func(s map[string]any) {
			s["workers"].([]any)[0].(map[string]any)["name"] = "a"
		}, `workers[0].name: must match pattern "^[A-Z]$"`},
		{"a status below 100 in what a form shows", "client", "two-forms", func(s map[string]any) {
			step := s["steps"].([]any)[1].(map[string]any)
			step["shows"].(map[string]any)["support"] = map[string]any{"kind": "unsure", "status": -1}
		}, "shows.support.status: must be >= 100"},
		{"keys kept for no time at all", "endpoint", "first-request-creates", func(s map[string]any) {
			s["retentionHours"] = 0
		}, "retentionHours: must be > 0"},
		{"a form named twice", "client", "two-forms", func(s map[string]any) {
			forms := s["forms"].([]any)
			s["forms"] = append(forms, forms[0])
		}, "forms: must NOT have duplicate items"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			message := LoadChanged[bare](t, test.kind, test.from, test.from, test.change)
			if !strings.Contains(message, test.says) {
				t.Errorf("loading it said\n\t%s\nwant it to say\n\t%s", message, test.says)
			}
		})
	}
}

func outcome(s map[string]any, column string) map[string]any {
	return s["expect"].(map[string]any)[column].(map[string]any)["outcomes"].([]any)[0].(map[string]any)
}
