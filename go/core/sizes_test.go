package core

import (
	"slices"
	"testing"
)

func TestSeeds(t *testing.T) {
	tests := []struct {
		name        string
		cases, seed string // the variables' values ("" for unset)
		want        []uint64
	}{
		{"the learner's loop", "", "", []uint64{0, 1, 2}},
		{"verify's more", "5", "", []uint64{0, 1, 2, 3, 4}},
		{"a seed replayed alone", "5", "42", []uint64{42}},
		{"a count that is no count", "none", "", []uint64{0, 1, 2}},
		{"zero cases is no count either", "0", "", []uint64{0, 1, 2}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			t.Setenv("TEST_CASES", test.cases)
			t.Setenv("TEST_SEED", test.seed)
			if got := Seeds("TEST_CASES", "TEST_SEED", 3); !slices.Equal(got, test.want) {
				t.Errorf("Seeds with TEST_CASES=%q TEST_SEED=%q = %v, want %v", test.cases, test.seed, got, test.want)
			}
		})
	}
}
