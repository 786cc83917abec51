package client

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
		{"a send without its request", func(s map[string]any) { delete(schedules.At(s, "steps", 1), "request") },
			"steps[1].request: missing: a send step needs it"},
		{"a field of another kind of step", func(s map[string]any) { schedules.At(s, "steps", 1)["item"] = "x" },
			"steps[1].item: not a field of a send step (it takes form, fate, request)"},
		{"a form that isn't on the page", func(s map[string]any) { schedules.At(s, "steps", 0)["form"] = "billing" },
			`steps[0].form: "billing" is not one of the forms (support)`},
		{"an unsure state without its status", func(s map[string]any) {
			schedules.At(s, "steps", 1, "shows")["support"] = map[string]any{"kind": "unsure"}
		}, "steps[1].shows.support.status: missing: unsure needs it"},
		{"a state the form can't be in", func(s map[string]any) {
			schedules.At(s, "steps", 1, "shows")["support"] = map[string]any{"kind": "confused"}
		}, `steps[1].shows.support.kind: must be one of "editing", "sending", "unsure", "created", "refused"`},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			message := schedules.LoadChanged[Journey](t, "client", "send-pressed-twice", "send-pressed-twice", test.change)
			if !strings.Contains(message, "schedules/client/send-pressed-twice.json: ") || !strings.Contains(message, test.want) {
				t.Errorf("the error\n\t%s\ndoes not name the file and say\n\t%s", message, test.want)
			}
		})
	}
}
