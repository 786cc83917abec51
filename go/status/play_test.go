package status

import (
	"testing"

	"workbook/schedules"
)

// TestStatusSchedules plays every schedules/status file with the three ways of applying changes, each
// held to its own column: the two given ones that never check a version, and exercise 07's solution.
func TestStatusSchedules(t *testing.T) {
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	appliers := []struct {
		column string
		rules  Rules
	}{
		{AsItArrivesColumn, AsItArrives},
		{ReceiptsOnlyColumn, ReceiptsOnly},
		{VersionedColumn, Versioned},
	}
	for _, applier := range appliers {
		t.Run(applier.column, func(t *testing.T) {
			for _, s := range all {
				t.Run(s.Name, func(t *testing.T) {
					schedules.Playing(t, s, applier.column)
					if problem := Judge(s, applier.column, Play(s, applier.rules)); problem != "" {
						t.Error(problem)
					}
				})
			}
		})
	}
}
