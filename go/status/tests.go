package status

import (
	"os"
	"strconv"
	"testing"

	"workbook/schedules"
)

// PlaySchedules is exercise 07's test of a way of applying changes, as harness/status/play.ts's
// playStatusSchedules is TypeScript's: every schedules/status file, each a subtest held to the column's
// expectations.
//
//	func TestStatusSchedules(t *testing.T) {
//		status.PlaySchedules(t, status.VersionedColumn, status.Rules{SetStatus: SetStatus, AddComment: AddComment})
//	}
//
// The first schedule that goes another way tells its whole story; any later one says it fails in one
// line, so a red run fits on one screen.
func PlaySchedules(t *testing.T, column string, rules Rules) {
	t.Helper()
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	told := false
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			schedules.Playing(t, s, column)
			problem := Judge(s, column, Play(s, rules))
			switch {
			case problem == "":
			case told:
				t.Errorf("Schedule %q (%s) goes another way too: its story once the one above passes", s.Name, s.File)
			default:
				told = true
				t.Error(problem)
			}
		})
	}
}

// PropertySeed and PropertyRuns are the made-up schedules every run plays; STATUS_SEED replays one run.
const PropertySeed, PropertyRuns = 20260707, 300

// ExploreMadeUp plays made-up schedules against the rules, held to the contract, as
// harness/status/property.ts's exploreStatus does: the shortest failing one found is told as a shipped
// schedule's failure is, with the STATUS_SEED that replays it.
func ExploreMadeUp(t *testing.T, rules Rules) {
	t.Helper()
	seed, runs := int64(PropertySeed), PropertyRuns
	if s, err := strconv.ParseInt(os.Getenv("STATUS_SEED"), 10, 64); err == nil {
		seed, runs = s, 1
	}
	if problem := BrokenMadeUpSchedule(rules, seed, runs); problem != "" {
		t.Error(problem)
	}
}
