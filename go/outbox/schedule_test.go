package outbox

import (
	"strings"
	"testing"

	"workbook/schedules"
)

func TestLoadingNamesTheFileAndField(t *testing.T) {
	tests := []struct {
		name   string
		change func(s map[string]any)
		want   string
	}{
		{"a step that isn't one", func(s map[string]any) { schedules.At(s, "steps", 1)["do"] = "nap" },
			`steps[1].do: must be one of "deliver", "relay", "provider-down", "provider-up", "wait"`},
		{"a field another kind of step takes", func(s map[string]any) { schedules.At(s, "steps", 1)["seconds"] = 5 },
			"steps[1].seconds: not a field here (misspelled?)"},
		{"a delivery without its fault", func(s map[string]any) { delete(schedules.At(s, "steps", 0), "fault") },
			"steps[0].fault: missing"},
		{"a relay crash after sending that doesn't say which email", func(s map[string]any) {
			schedules.At(s, "steps", 1)["crash"] = map[string]any{"after": "send"}
		}, "steps[1].crash.email: missing: which email of the run"},
		{"an inbox that doesn't match the delivered calls", func(s map[string]any) {
			schedules.At(s, "expect", "outbox-relay")["inbox"] = []any{}
		}, `expect.outbox-relay.inbox: the inbox (empty) must hold exactly the calls answered "delivered"`},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			message := schedules.LoadChanged[Schedule](t, "outbox", "one-ticket-one-email", "one-ticket-one-email", test.change)
			if !strings.Contains(message, "schedules/outbox/one-ticket-one-email.json: ") || !strings.Contains(message, test.want) {
				t.Errorf("the error\n\t%s\ndoes not name the file and say\n\t%s", message, test.want)
			}
		})
	}
}
