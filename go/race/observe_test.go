package race

import (
	"slices"
	"strings"
	"testing"

	"workbook/database"
	"workbook/handler"
	"workbook/race/atomic"
)

func fix(db database.Connection, event handler.Webhook) (handler.Outcome, error) {
	return atomic.HandleAtomically(db, event, nil)
}

// TestPlayForGraderLeavesWhatTheSchedulesExpect: the grader's plays of the race schedules are the tests'
// plays, so 03's fix leaves each schedule's atomic column, and the trace comes line by line.
func TestPlayForGraderLeavesWhatTheSchedulesExpect(t *testing.T) {
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			answers, contents, lines, err := PlayForGrader(s, fix)
			if err != nil {
				t.Fatal(err)
			}
			want := s.Expected(AtomicColumn)
			if !slices.Equal(answers, want.Answers) {
				t.Errorf("answers %+v, the schedule expects %+v", answers, want.Answers)
			}
			if !slices.Equal(saidTickets(contents.Tickets), saidTickets(want.Tickets)) {
				t.Errorf("tickets %v, the schedule expects %v", saidTickets(contents.Tickets), saidTickets(want.Tickets))
			}
			if len(lines) == 0 || lines[len(lines)-1].Worker == "" {
				t.Errorf("the trace is %+v: every line names its worker", lines)
			}
		})
	}
}

func TestPropertyCaseForGrader(t *testing.T) {
	zero := 0
	other := handler.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-43", Subject: "Cannot sign in"}
	tests := []struct {
		name    string
		workers []CaseWorker
		choices []int
		answers []Answer
		tickets int
		told    string
	}{
		{"two workers, one event, one after the other", []CaseWorker{{evt42, nil}, {evt42, nil}}, nil,
			[]Answer{{"A", "created", 1, ""}, {"B", "replayed", 1, ""}}, 1, "interleaving: A A"},
		{"a worker that dies before its first operation", []CaseWorker{{evt42, &zero}}, nil,
			[]Answer{{"A", "crashed", 0, ""}}, 0, "tickets:\n    (none)"},
		{"two events, alternating", []CaseWorker{{evt42, nil}, {other, nil}}, []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1},
			[]Answer{{"A", "created", 1, ""}, {"B", "created", 2, ""}}, 2, "interleaving: A B A B"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			ran, err := PropertyCaseForGrader(fix, test.workers, test.choices)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ran.Answers, test.answers) {
				t.Errorf("answers %+v, want %+v", ran.Answers, test.answers)
			}
			if n := len(ran.Contents.Tickets); n != test.tickets {
				t.Errorf("%d tickets, want %d", n, test.tickets)
			}
			if !strings.Contains(ran.Told, test.told) || !strings.Contains(ran.Told, "\n\nAfter the run:\ntickets:\n") {
				t.Errorf("the run told\n%s\nsays nothing of %q, or not as harness/race/explore.ts's tellRun", ran.Told, test.told)
			}
		})
	}
}
