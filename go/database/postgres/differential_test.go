package postgres

import (
	"strings"
	"testing"

	"workbook/schedules"
)

// TestDiffer: the report go/race and go/outbox give when the model and PostgreSQL part, and none when they
// agree.
func TestDiffer(t *testing.T) {
	named := Compared{Story: "traces", Rest: "what was committed"}
	trace := []string{"A begins", "A finds no receipt", "A commits"}
	tests := []struct {
		name   string
		server []string // PostgreSQL's trace; the model's is trace
		rows   []string // PostgreSQL's committed rows; the model's are ticket #1
		says   []string // "" when nothing: they agree
	}{
		{"the same trace and rows", trace, []string{"ticket #1"}, nil},
		{"a line told otherwise", []string{"A begins", "A waits for B", "A commits"}, []string{"ticket #1"},
			[]string{"disagree on schedule \"x\".", "The traces part at line 2:\n  model:      A finds no receipt\n  PostgreSQL: A waits for B", "model   ", "PostgreSQL"}},
		{"PostgreSQL told fewer lines", trace[:2], []string{"ticket #1"},
			[]string{"The traces part at line 3:\n  model:      A commits\n  PostgreSQL: (nothing)"}},
		{"the same trace, other rows", trace, []string{"ticket #2"},
			[]string{"The traces agree, but not what was committed.", "ticket #2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Differ(`schedule "x"`, named, []schedules.Row{
				{Label: "trace", Expected: trace, Actual: tt.server},
				{Label: "committed", Expected: []string{"ticket #1"}, Actual: tt.rows},
			})
			if tt.says == nil && got != "" {
				t.Fatalf("the model and PostgreSQL agree, but Differ says:\n%s", got)
			}
			if tt.says != nil && got == "" {
				t.Fatalf("PostgreSQL's run differs from the model's, but Differ says nothing")
			}
			for _, words := range tt.says {
				if !strings.Contains(got, words) {
					t.Errorf("Differ does not say %q:\n%s", words, got)
				}
			}
		})
	}
}
