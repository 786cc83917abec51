package status

import "testing"

// TestStatusSchedules plays every schedules/status file with the two given ways of applying changes, each
// held to its own column. Exercise 07's rules play the versioned column in go/exercises/07-close-and-reopen.
func TestStatusSchedules(t *testing.T) {
	for _, applier := range []struct {
		column string
		rules  Rules
	}{
		{AsItArrivesColumn, AsItArrives},
		{ReceiptsOnlyColumn, ReceiptsOnly},
	} {
		t.Run(applier.column, func(t *testing.T) { PlaySchedules(t, applier.column, applier.rules) })
	}
}
