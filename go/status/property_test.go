package status

import (
	"os"
	"strconv"
	"testing"
)

// propertySeed and propertyRuns are the made-up schedules every run plays; STATUS_SEED replays one run.
const propertySeed, propertyRuns = 20260707, 300

func seedAndRuns() (int64, int) {
	if s, err := strconv.ParseInt(os.Getenv("STATUS_SEED"), 10, 64); err == nil {
		return s, 1
	}
	return propertySeed, propertyRuns
}

// TestContractMeetsTheSchedules holds the model to the versioned column of every shipped schedule.
func TestContractMeetsTheSchedules(t *testing.T) {
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			got := ExpectedByContract(s.Start, s.Deliveries)
			if problem := Judge(s, VersionedColumn, Played{got.Answers, Store{got.Tickets, got.Receipts}}); problem != "" {
				t.Error(problem)
			}
		})
	}
}

// TestMadeUpSchedules plays made-up schedules against the solution, held to the contract. The mistakes the
// shipped schedules let through (comments told by their text, numbered across tickets, a repeat answered
// with the count now) are go/solutions/wrong/*.patch: verify sees each fail here, in its words.
func TestMadeUpSchedules(t *testing.T) {
	seed, runs := seedAndRuns()
	if problem := BrokenMadeUpSchedule(Versioned, seed, runs); problem != "" {
		t.Error(problem)
	}
}
