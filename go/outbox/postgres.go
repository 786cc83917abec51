//go:build postgres

package outbox

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"workbook/database"
	"workbook/database/postgres"
	"workbook/schedules"
)

// Exercise 05 on a real PostgreSQL, as its tests call it (the sender under test passed in, as in tests.go).
// They play the schedules without schedules.Playing: the parity check counts the model's plays, on both
// sides, and not these.
// Built only with -tags postgres, as the exercises' postgres_test.go files are: an in-memory go test of
// the exercise links no PostgreSQL driver (pgx is half of the test binary's packages, and linking is most
// of a learner's loop).
//
//	OnPostgres(t, send)   every outbox schedule on PostgreSQL, held to send's column, the model's story
//	                      of each checked against PostgreSQL's, line for line, and a sample of the crash
//	                      points (every fifth plan) on PostgreSQL itself

// OnPostgres plays the outbox schedules with send on a PostgreSQL of the test's own.
func OnPostgres(t *testing.T, send Sender) {
	t.Helper()
	place := postgres.ForTest(t)
	t.Run("the schedules on PostgreSQL, as "+send.column, func(t *testing.T) { schedulesOnPostgres(t, place, send) })
	t.Run("the model agrees with PostgreSQL", func(t *testing.T) { modelAgreesWithPostgres(t, place, send) })
	t.Run("a sample of the crash points on PostgreSQL", func(t *testing.T) { crashPointsOnPostgres(t, place, send) })
}

// schedulesOnPostgres plays every schedules/outbox file on PostgreSQL, held to send's column, as
// PlaySchedules does on the model.
func schedulesOnPostgres(t *testing.T, place *postgres.Place, send Sender) {
	postgres.EachSchedule(t, place, LoadSchedules, func(t *testing.T, s Schedule, db *postgres.Database) {
		if problem := judge(s, send.column, playOn(db, s, send)); problem != "" {
			t.Error("on PostgreSQL: " + problem)
		}
	})
}

// modelAgreesWithPostgres plays each outbox schedule on the model and on PostgreSQL: the same story, line
// for line, and the same rows, emails and provider calls after the last step.
func modelAgreesWithPostgres(t *testing.T, place *postgres.Place, send Sender) {
	postgres.EachSchedule(t, place, LoadSchedules, func(t *testing.T, s Schedule, db *postgres.Database) {
		model, server := playOn(database.New(), s, send), playOn(db, s, send)
		what := fmt.Sprintf("outbox schedule %q (%s) as %s", s.Name, s.File, send.column)
		if problem := differ(what, model, server); problem != "" {
			t.Error(problem)
		}
	})
}

// crashPointsOnPostgres is a sample of EveryCrashPoint on PostgreSQL: every fifth crash plan (the handler
// and the relay dying at one point each, then the retry and a clean relay run), each on empty tables. The
// outbox keeps "every committed ticket has exactly one email"; sending inside the transaction breaks it
// there too (the sample stops at its first break), so it is seen to catch what it should.
func crashPointsOnPostgres(t *testing.T, place *postgres.Place, send Sender) {
	all := crashPlans()
	var broken []string
	for i := 0; i < len(all) && (send.column == OutboxRelayColumn || len(broken) == 0); i += 5 {
		db := place.FreshFor(t)
		if problem := checkRoundsOn(db, send, all[i]); problem != "" {
			broken = append(broken, fmt.Sprintf("crash plan %d of %d, on PostgreSQL: %s", i+1, len(all), problem))
		}
	}
	switch {
	case send.column == OutboxRelayColumn && len(broken) > 0:
		t.Errorf("%s: %s", send.column, broken[0])
	case send.column != OutboxRelayColumn && len(broken) == 0:
		t.Errorf("%s kept the promise at every sampled crash point on PostgreSQL", send.column)
	}
}

// afterwards is what a run left, one thing a line: rows, emails, provider calls, and a failure if any.
func afterwards(p played) []string {
	return slices.Concat(
		lines(p.outcomes, saidOutcome),
		lines(p.committed.Tickets, saidTicket),
		lines(p.committed.Receipts, saidReceipt),
		lines(p.committed.Outbox, func(r database.OutboxRow) string {
			return fmt.Sprintf("#%d %s", r.ID, saidRow(ExpectedRow{r.Key, r.Tenant, r.TicketID, r.To, r.Subject, r.State}))
		}),
		lines(p.inbox, saidEmail),
		lines(p.calls, func(c Call) string { return c.Key + " " + string(c.Answer) }),
		[]string{p.problem},
	)
}

// differ returns "" when the model and PostgreSQL played alike; otherwise where they part, and both runs.
func differ(what string, model, server played) string {
	return postgres.Differ(what, postgres.Compared{Story: "stories", Rest: "what was left after the last step"}, []schedules.Row{
		{Label: "story", Expected: strings.Split(model.story, "\n"), Actual: strings.Split(server.story, "\n")},
		{Label: "afterwards", Expected: afterwards(model), Actual: afterwards(server)},
	})
}
