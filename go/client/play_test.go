package client

import (
	"testing"

	"workbook/schedules"
)

// TestJourneys plays every schedules/client journey: the key store's own, and the anti-pattern's.
func TestJourneys(t *testing.T) {
	all, err := LoadJourneys()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range all {
		t.Run(j.Name, func(t *testing.T) {
			schedules.Playing(t, j, "")
			if problem := judge(j, play(j)); problem != "" {
				t.Error(problem)
			}
		})
	}
}
