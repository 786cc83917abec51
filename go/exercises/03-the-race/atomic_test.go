package therace

import (
	"testing"

	"workbook/core"
	"workbook/given"
	"workbook/race"
)

// TestAtomic is exercise 03's test of the fix, as exercises/03-the-race/atomic.test.ts is TypeScript's:
// everything 02's handler does one at a time, the race schedules as atomic, every interleaving of two and
// three workers, a crash after each operation, and the random property. On PostgreSQL: postgres_test.go.
func TestAtomic(t *testing.T) {
	core.Written(t, func() { race.Try(HandleAtomically) })
	race.PlayOneAtATime(t, HandleAtomically)
	race.PlaySchedules(t, race.AtomicColumn, HandleAtomically)
	t.Run("every interleaving", func(t *testing.T) {
		t.Run("two workers on evt-42: one ticket, one receipt, and each answers created #1 or replayed #1", func(t *testing.T) {
			race.OneTicketInEveryInterleaving(t, HandleAtomically, 2)
		})
		t.Run("three workers on evt-42: every state they can reach", func(t *testing.T) {
			race.OneTicketInEveryInterleaving(t, HandleAtomically, 3)
		})
		t.Run("A crashes after each of its operations: at most one ticket, and B answers with it", func(t *testing.T) {
			race.EveryInterleavingWithACrash(t, HandleAtomically)
		})
	})
	t.Run("property: up to four workers, random events, crashes and interleavings, one ticket per event", func(t *testing.T) {
		race.OneTicketPerEventProperty(t, HandleAtomically)
	})
}

// TestWritesItsOwn: the workbook hands this exercise's fix on from exercise 05 (go/race/atomic); this
// exercise's files may not import it, or the tests above would pass on work they did not do.
func TestWritesItsOwn(t *testing.T) {
	given.Check(t, "03")
}
