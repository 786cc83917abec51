package race

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
		{"a crash after an operation that isn't one", func(s map[string]any) { schedules.At(s, "workers", 0)["crashAfter"] = "lunch" },
			`workers[0].crashAfter: must be one of "find-receipt", "save-ticket", "save-receipt", "commit", "rollback"`},
		{"an interleaving naming no worker", func(s map[string]any) { s["interleaving"] = []any{"A", "Z"} },
			"interleaving[1]: Z is not one of the workers"},
		{"answers out of order", func(s map[string]any) {
			answers := schedules.At(s, "expect", "atomic")["answers"].([]any)
			answers[0], answers[1] = answers[1], answers[0]
		}, "expect.atomic.answers[0].worker: answers go in the order of the workers: expected A here"},
		{"a failed answer without its error", func(s map[string]any) {
			delete(schedules.At(s, "expect", "separate", "answers", 1), "error")
		}, "expect.separate.answers[1].error: a failed answer names its error"},
		{"a misspelled field in an answer", func(s map[string]any) {
			answer := schedules.At(s, "expect", "atomic", "answers", 1)
			answer["ticket"] = answer["ticketId"]
			delete(answer, "ticketId")
		}, "expect.atomic.answers[1].ticketId: missing; expect.atomic.answers[1].ticket: not a field here (misspelled?)"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			message := schedules.LoadChanged[Schedule](t, "race", "two-workers-alternate", "two-workers-alternate", test.change)
			if !strings.Contains(message, "schedules/race/two-workers-alternate.json: ") || !strings.Contains(message, test.want) {
				t.Errorf("the error\n\t%s\ndoes not name the file and say\n\t%s", message, test.want)
			}
		})
	}
}
