package endpoint

import (
	"strings"
	"testing"

	"workbook/schedules"
)

// TestLoadingNamesTheFileAndField holds Go's schedule check to TypeScript's rules and words
// (harness/endpoint/schedules.ts). Each case loads ten times: the message must be the same each time.
func TestLoadingNamesTheFileAndField(t *testing.T) {
	steps := func(s map[string]any) []any { return s["steps"].([]any) }
	tests := []struct {
		name   string
		change func(s map[string]any)
		want   string
	}{
		{"no answer, and yet a body expected", func(s map[string]any) {
			schedules.At(s, "steps", 1, "expect")["status"] = nil
		}, "steps[1].expect: no answer arrives, so there is nothing else to expect"},
		{"a body given two ways", func(s map[string]any) {
			schedules.At(s, "steps", 1)["text"] = "{}"
		}, "steps[1]: give the body exactly one way: json, text, subjectBytes or base64 (found json, text)"},
		{"a body not given", func(s map[string]any) {
			delete(schedules.At(s, "steps", 1), "json")
		}, "steps[1]: give the body exactly one way: json, text, subjectBytes or base64 (found none)"},
		{"three held and none released: the first is named", func(s map[string]any) {
			schedules.At(s, "steps", 1)["fault"] = "held"
			schedules.At(s, "steps", 3)["fault"] = "held"
			s["steps"] = append(steps(s)[:2], steps(s)[3:]...)
		}, "steps[0].fault: request 1 is held and never released"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			for range 10 {
				message := schedules.LoadChanged[Schedule](t, "endpoint", "key-in-flight-gets-409", "key-in-flight-gets-409", test.change)
				if !strings.Contains(message, "schedules/endpoint/key-in-flight-gets-409.json: ") || !strings.Contains(message, test.want) {
					t.Fatalf("the error\n\t%s\ndoes not name the file and say\n\t%s", message, test.want)
				}
			}
		})
	}
}
