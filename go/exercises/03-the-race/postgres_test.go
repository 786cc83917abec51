//go:build postgres

package therace

import (
	"testing"

	"workbook/core"
	"workbook/race"
)

// The same race on a real PostgreSQL, as npm run postgres -- 03 plays it: go test -tags postgres
// ./exercises/03-the-race. The tests start a server of their own (the workbook's embedded binaries) unless
// WORKBOOK_POSTGRES_URL names one, and stop it at the end; npm run verify runs them.

// TestSeparateOnPostgres: HandleSeparately's race schedules and handler schedules on the server, and the
// model telling the same story line for line.
func TestSeparateOnPostgres(t *testing.T) {
	race.OnPostgres(t, race.SeparateColumn, HandleSeparately)
}

// TestAtomicOnPostgres: HandleAtomically the same way.
func TestAtomicOnPostgres(t *testing.T) {
	core.Written(t, func() { race.Try(HandleAtomically) })
	race.OnPostgres(t, race.AtomicColumn, HandleAtomically)
}
