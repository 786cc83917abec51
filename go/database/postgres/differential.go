package postgres

import (
	"fmt"
	"slices"
	"strings"

	"workbook/schedules"
)

// The differential check's report, as harness/postgres/differential.ts's compare is TypeScript's: the same
// run on the in-memory model and on PostgreSQL, held line for line. go/race and go/outbox play the runs;
// this says whether they agree and, if not, where they part.
//
//	problem := postgres.Differ(what, postgres.Compared{Story: "traces", Rest: "what was committed"}, []schedules.Row{
//		{Label: "trace", Expected: modelTrace, Actual: serverTrace},         // the story, told step by step
//		{Label: "committed", Expected: modelRows, Actual: serverRows},       // what else must agree
//	})

// Compared names a check's parts in its report: its story ("traces", "stories") and the rest of what it
// compares, said when the stories agree and the rest does not ("what was committed").
type Compared struct {
	Story string
	Rest  string
}

// Differ returns "" when every row's model lines (Expected) are its PostgreSQL lines (Actual); otherwise the
// line where the first row, the story, parts, and every row side by side, the model's on the left.
func Differ(what string, named Compared, rows []schedules.Row) string {
	if !slices.ContainsFunc(rows, func(row schedules.Row) bool { return !slices.Equal(row.Expected, row.Actual) }) {
		return ""
	}
	first := fmt.Sprintf("The %s agree, but not %s.", named.Story, named.Rest)
	if len(rows) > 0 {
		model, server := rows[0].Expected, rows[0].Actual
		for i := range max(len(model), len(server)) {
			if lineAt(model, i) != lineAt(server, i) {
				first = fmt.Sprintf("The %s part at line %d:\n  model:      %s\n  PostgreSQL: %s", named.Story, i+1, lineAt(model, i), lineAt(server, i))
				break
			}
		}
	}
	report := schedules.SideBySide(rows)
	report = strings.Replace(strings.Replace(report, "expected", "model   ", 1), "your code", "PostgreSQL", 1)
	return fmt.Sprintf("The in-memory model and PostgreSQL disagree on %s.\n%s\n\n%s", what, first, report)
}

// lineAt is the line at i, or "(nothing)" past the end.
func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(nothing)"
}
