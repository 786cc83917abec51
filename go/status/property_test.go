package status

import (
	"strings"
	"testing"
)

// TestContractMeetsTheSchedules holds the model to the versioned column of every shipped schedule.
func TestContractMeetsTheSchedules(t *testing.T) {
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			got := ExpectedByContract(s.Start, s.Deliveries)
			if problem := Judge(s, VersionedColumn, Played{Answers: got.Answers, Store: Store{Tickets: got.Tickets, Receipts: got.Receipts}}); problem != "" {
				t.Error(problem)
			}
		})
	}
}

// TestMadeUpSchedulesFindReceiptsOnly: receipts-only keeps a receipt for every status change and lets a
// late one in, both of which the contract does not; the made-up schedules must find it, shrink it, and say
// how to replay it.
func TestMadeUpSchedulesFindReceiptsOnly(t *testing.T) {
	problem := BrokenMadeUpSchedule(ReceiptsOnly, PropertySeed, PropertyRuns)
	for _, words := range []string{`Schedule "made-up"`, "shrunk from", "STATUS_SEED=", "go test ./exercises/07-close-and-reopen -run TestMadeUpSchedules"} {
		if !strings.Contains(problem, words) {
			t.Errorf("made-up schedules against receipts-only: no %q in what they said:\n%s", words, problem)
		}
	}
}
