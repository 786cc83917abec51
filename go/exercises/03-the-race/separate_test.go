package therace

import (
	"testing"

	"workbook/race"
)

// TestSeparate passes as shipped, as exercises/03-the-race/separate.test.ts does: it pins what the given
// HandleSeparately does, bug included. Right one delivery at a time, wrong two at once.
func TestSeparate(t *testing.T) {
	race.PlayOneAtATime(t, HandleSeparately)
	race.PlaySchedules(t, race.SeparateColumn, HandleSeparately)
	t.Run("every interleaving of two workers on evt-42: some leave two tickets (the first is logged)", func(t *testing.T) {
		race.SomeInterleavingsBreak(t, HandleSeparately)
	})
	t.Run("the property finds a counterexample too, and names its seed", func(t *testing.T) {
		race.PropertyFindsACounterexample(t, HandleSeparately)
	})
}
