package status

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
		{"a change that isn't one", func(s map[string]any) { schedules.At(s, "deliveries", 1, "change")["kind"] = "merge" },
			`deliveries[1].change.kind: must be one of "set-status", "add-comment"`},
		{"a field another kind of change takes", func(s map[string]any) { schedules.At(s, "deliveries", 0, "change")["text"] = "hi" },
			"deliveries[0].change.text: not a field here (misspelled?)"},
		{"a status change without the version it was decided on", func(s map[string]any) {
			delete(schedules.At(s, "deliveries", 2, "change"), "decidedOn")
		}, "deliveries[2].change.decidedOn: missing"},
		{"a change about a ticket the schedule does not start with", func(s map[string]any) {
			schedules.At(s, "deliveries", 2, "change")["ticketId"] = 7
		}, "deliveries[2].change.ticketId: no ticket #7 in start"},
		{"an answer where the worker dies", func(s map[string]any) {
			schedules.At(s, "deliveries", 0)["fault"] = "after-commit"
		}, "expect.as-it-arrives.answers[0]: the worker dies (after-commit): crashed"},
		{"a misspelled field in an answer", func(s map[string]any) {
			answer := schedules.At(s, "expect", "versioned", "answers", 2)
			answer["versoin"] = answer["version"]
			delete(answer, "version")
		}, "expect.versioned.answers[2].version: missing; expect.versioned.answers[2].versoin: not a field here (misspelled?)"},
		{"a status that isn't one", func(s map[string]any) { schedules.At(s, "start", 0)["status"] = "pending" },
			`start[0].status: must be one of "open", "closed"`},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			message := schedules.LoadChanged[Schedule](t, "status", "late-close-after-reopen", "late-close-after-reopen", test.change)
			if !strings.Contains(message, "schedules/status/late-close-after-reopen.json: ") || !strings.Contains(message, test.want) {
				t.Errorf("the error\n\t%s\ndoes not name the file and say\n\t%s", message, test.want)
			}
		})
	}
}
