package schedules

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type color string

func (color) Values() []string { return []string{"red", "green"} }

type inner struct {
	Color color `json:"color"`
}

type sample struct {
	Named
	inner
	Count  int            `json:"count" schedule:"nullable"`
	Note   string         `json:"note,omitempty"`
	Nested *inner         `json:"nested"`
	Tags   map[string]int `json:"tags"`
	Items  []inner        `json:"items"`
}

func TestCheckNamesEveryProblem(t *testing.T) {
	tests := []struct {
		name string
		json string
		want []string
	}{
		{"a good one", `{"name":"x","color":"red","count":null,"nested":null,"tags":{},"items":[]}`, nil},
		{"optional fields may be left out, $schema may be there", `{"$schema":"s","name":"x","color":"green","count":2,"nested":{"color":"red"},"tags":{"a":1},"items":[{"color":"red"}]}`, nil},
		{"missing and unknown", `{"nam":"x","color":"red","count":1,"nested":null,"tags":{},"items":[]}`, []string{"nam: not a field here (misspelled?)", "name: missing"}},
		{"deep inside a list", `{"name":"x","color":"red","count":1,"nested":null,"tags":{},"items":[{"color":"red"},{"colour":"red"}]}`, []string{"items[1].colour: not a field here (misspelled?)", "items[1].color: missing"}},
		{"a value not allowed", `{"name":"x","color":"blue","count":1,"nested":{"color":"pink"},"tags":{},"items":[]}`, []string{`color: must be one of "red", "green"`, `nested.color: must be one of "red", "green"`}},
		{"wrong types", `{"name":1,"color":"red","count":1.5,"nested":[],"tags":{"a":"b"},"items":{}}`, []string{"name: must be string", "count: must be integer", "nested: must be object", "tags.a: must be integer", "items: must be array"}},
		{"not an object at all", `[1]`, []string{"the file: must be object"}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			var raw any
			if err := json.Unmarshal([]byte(test.json), &raw); err != nil {
				t.Fatal(err)
			}
			var problems []string
			check(raw, reflect.TypeFor[sample](), "", &problems)
			if strings.Join(problems, "\n") != strings.Join(test.want, "\n") {
				t.Errorf("problems:\n\t%s\nwant:\n\t%s", strings.Join(problems, "\n\t"), strings.Join(test.want, "\n\t"))
			}
		})
	}
}

func TestSideBySideMarksTheLinesThatDiffer(t *testing.T) {
	got := SideBySide([]Row{
		{Label: "tickets", Expected: []string{"#1 acme"}, Actual: []string{"#1 acme", "#2 acme"}},
		{Label: "receipts", Expected: nil, Actual: nil},
	})
	want := strings.Join([]string{
		"             expected       your code",
		"  tickets    #1 acme        #1 acme",
		"≠                           #2 acme",
		"  receipts   (none)         (none)",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Too wide for a message: each line that differs, your code's under the expected one, "your code" a label
	// with two spaces after it as the others have.
	long := strings.Repeat("x", 60)
	got = SideBySide([]Row{{Label: "tickets", Expected: []string{"#1 " + long, "#2"}, Actual: []string{"#1 " + long, "#3 " + long}}})
	want = strings.Join([]string{
		"             expected; where it differs (≠), your code on the line under it",
		"  tickets    #1 " + long,
		"≠            #2",
		"  your code  #3 " + long,
	}, "\n")
	if got != want {
		t.Errorf("stacked: got\n%s\nwant\n%s", got, want)
	}
}

type step struct {
	Do      string `json:"do"`
	Seconds int    `json:"seconds,omitempty"`
	Crash   *inner `json:"crash,omitempty"`
}

func (step) UnionTag() string { return "do" }

func (step) Shapes() map[string]any {
	return map[string]any{
		"wait": struct {
			Do      string `json:"do"`
			Seconds int    `json:"seconds"`
		}{},
		"relay": struct {
			Do    string `json:"do"`
			Crash *inner `json:"crash,omitempty"`
		}{},
	}
}

func TestCheckHoldsAUnionToTheShapeItsTagPicks(t *testing.T) {
	tests := []struct {
		json string
		want []string
	}{
		{`[{"do":"wait","seconds":5},{"do":"relay"},{"do":"relay","crash":{"color":"red"}}]`, nil},
		{`[{"do":"wait"}]`, []string{"[0].seconds: missing"}},
		{`[{"do":"relay","seconds":5}]`, []string{"[0].seconds: not a field here (misspelled?)"}},
		{`[{"do":"sleep"}]`, []string{`[0].do: must be one of "relay", "wait"`}},
		{`[{"seconds":5}]`, []string{"[0].do: missing"}},
	}
	for _, test := range tests {
		t.Run(test.json, func(t *testing.T) {
			var raw any
			if err := json.Unmarshal([]byte(test.json), &raw); err != nil {
				t.Fatal(err)
			}
			var problems []string
			check(raw, reflect.TypeFor[[]step](), "", &problems)
			if strings.Join(problems, "\n") != strings.Join(test.want, "\n") {
				t.Errorf("problems:\n\t%s\nwant:\n\t%s", strings.Join(problems, "\n\t"), strings.Join(test.want, "\n\t"))
			}
		})
	}
}

// TestSideBySideShowsWhatALearnerCannotSee: two lines that differ only in spaces or characters that print as
// nothing show them, as harness/core/report.ts's sideBySide does (learner/messages.test.ts, the same table).
func TestSideBySideShowsWhatALearnerCannotSee(t *testing.T) {
	row := func(label, expected, actual string) Row {
		return Row{Label: label, Expected: []string{expected}, Actual: []string{actual}}
	}
	tests := []struct {
		name string
		rows []Row
		want []string
	}{
		{"spaces at the end, doubled, a tab and those that print as nothing", []Row{
			row("tickets", "#1 acme: Cannot sign in", "#1 acme: Cannot sign in "),
			row("spaces", "Cannot sign in", "Cannot  sign\tin"),
			row("hidden", "Cannot sign in", "Can\u200bnot sign\u00a0in"),
			row("same", "Cannot sign in", "Cannot sign in"),
		}, []string{
			"            expected                  your code",
			"≠ tickets   #1 acme: Cannot sign in   #1 acme: Cannot sign in·",
			"≠ spaces    Cannot sign in            Cannot··sign⟨U+0009⟩in",
			"≠ hidden    Cannot sign in            Can⟨U+200B⟩not sign⟨U+00A0⟩in",
			"  same      Cannot sign in            Cannot sign in",
			"  (· marks a space you would not see, ⟨U+…⟩ a character that prints as nothing or as a space)",
		}},
		{"lines that differ in what they say are left as they are", []Row{
			row("tickets", "#1 acme: Cannot sign in", "#2 acme: Cannot sign in "),
		}, []string{
			"            expected                  your code",
			"≠ tickets   #1 acme: Cannot sign in   #2 acme: Cannot sign in",
		}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			got, want := SideBySide(test.rows), strings.Join(test.want, "\n")
			if got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}
