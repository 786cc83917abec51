package outbox

import (
	"strings"
	"testing"

	"workbook/database"
	"workbook/handler"
	"workbook/race/atomic"
)

// noOutbox is 03's fix with no outbox row and no relay: every ticket misses its email.
var noOutbox = OutboxRelay(func(db database.Connection, event handler.Webhook) (handler.Outcome, error) {
	return atomic.HandleAtomically(db, event, nil)
}, func(database.Connection, Mail) error { return nil })

func TestRoundsForGrader(t *testing.T) {
	deliver := func(event int, crash *CrashPoint) RoundWorker { return RoundWorker{"deliver", event, crash} }
	tests := []struct {
		name    string
		rounds  []Round
		tickets int
		stories []string
		judged  string // what judgeRounds says of it
		refused string // the error, when the rounds are not the property's
	}{
		{"one delivery and a relay that sends nothing", []Round{{false, []RoundWorker{deliver(0, nil), {"relay", 0, nil}}, nil}},
			1, []string{"round 1\n", "the last, clean relay run\n"}, "has 0 delivered emails, not 1", ""},
		{"a delivery that dies before its commit", []Round{{false, []RoundWorker{deliver(1, &CrashPoint{When: "before-commit"})}, nil}},
			0, []string{"round 1\n"}, "", ""},
		{"a worker that neither delivers nor relays", []Round{{false, []RoundWorker{{"nap", 0, nil}}, nil}}, 0, nil, "", `does "nap"`},
		{"an event the property does not have", []Round{{false, []RoundWorker{deliver(9, nil)}, nil}}, 0, nil, "", "event 9"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			left, err := RoundsForGrader(noOutbox, test.rounds)
			if test.refused != "" {
				if err == nil || !strings.Contains(err.Error(), test.refused) {
					t.Fatalf("error %v, want one saying %q", err, test.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := len(left.Committed.Tickets); n != test.tickets {
				t.Errorf("%d tickets, want %d", n, test.tickets)
			}
			for i, story := range test.stories {
				if i >= len(left.Stories) || !strings.HasPrefix(left.Stories[i], story) {
					t.Errorf("stories %q, want story %d to start %q", left.Stories, i, story)
				}
			}
			judged := judgeRounds(nil, roundsPlayed{committed: left.Committed, inbox: left.Inbox, problems: left.Problems})
			if (test.judged == "") != (judged == "") || !strings.Contains(judged, test.judged) {
				t.Errorf("the property says %q, want %q", judged, test.judged)
			}
		})
	}
}
