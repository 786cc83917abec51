//go:build postgres

package race

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"workbook/database"
	"workbook/database/postgres"
	"workbook/handler"
	"workbook/scheduler"
	"workbook/schedules"
)

// Exercise 03 on a real PostgreSQL, as its tests call them (the handler under test passed in, as in
// tests.go). They play the schedules without schedules.Playing: the parity check counts the model's plays,
// on both sides, and not these.
// Built only with -tags postgres, as the exercises' postgres_test.go files are: an in-memory go test of
// the exercise links no PostgreSQL driver (pgx is half of the test binary's packages, and linking is most
// of a learner's loop).
//
//	OnPostgres(t, column, handle)   the race schedules and the handler schedules on PostgreSQL, each also
//	                                played on the model with the same picks: the same trace, the same rows,
//	                                and the property's random cases the same way

// OnPostgres plays exercise 03's schedules with handle on a PostgreSQL of the test's own, held to column,
// and checks the in-memory model tells the same story.
func OnPostgres(t *testing.T, column string, handle Handle) {
	t.Helper()
	place := postgres.ForTest(t)
	impl := implementation{column, handle}
	t.Run("the race schedules on PostgreSQL, as "+column, func(t *testing.T) { raceSchedulesOnPostgres(t, place, impl) })
	t.Run("the model agrees with PostgreSQL", func(t *testing.T) { modelAgreesWithPostgres(t, place, impl) })
	t.Run("the handler schedules on PostgreSQL, one delivery at a time", func(t *testing.T) { handlerSchedulesOnPostgres(t, place, impl) })
	t.Run("random runs agree with PostgreSQL", func(t *testing.T) { randomRunsAgreeWithPostgres(t, place, impl) })
}

// raceSchedulesOnPostgres plays every schedules/race file on PostgreSQL, held to the column.
func raceSchedulesOnPostgres(t *testing.T, place *postgres.Place, impl implementation) {
	postgres.EachSchedule(t, place, LoadSchedules, func(t *testing.T, s Schedule, db *postgres.Database) {
		if problem := judge(s, impl.column, playOn(db, s, impl)); problem != "" {
			t.Error("on PostgreSQL: " + problem)
		}
	})
}

// modelAgreesWithPostgres is the differential check: each race schedule, played on the model and on
// PostgreSQL with the same picks, must tell the same story line for line (every outcome, every wait, every
// error) and leave the same committed rows.
func modelAgreesWithPostgres(t *testing.T, place *postgres.Place, impl implementation) {
	postgres.EachSchedule(t, place, LoadSchedules, func(t *testing.T, s Schedule, db *postgres.Database) {
		model, server := playOn(database.New(), s, impl), playOn(db, s, impl)
		what := fmt.Sprintf("race schedule %q (%s) with %s", s.Name, s.File, impl.column)
		if problem := differ(what, model, server); problem != "" {
			t.Error(problem)
		}
	})
}

// rowsOf is what a run committed, one row a line.
func rowsOf(p played) []string {
	return slices.Concat(saidAnswers(p.answers), saidTickets(p.db.Tickets), saidReceipts(p.db.Receipts))
}

// differ returns "" when the model and PostgreSQL played alike; otherwise where their traces part, and
// both runs in full.
func differ(what string, model, server played) string {
	return postgres.Differ(what, postgres.Compared{Story: "traces", Rest: "the answers or what was committed"}, []schedules.Row{
		{Label: "trace", Expected: strings.Split(model.trace, "\n"), Actual: strings.Split(server.trace, "\n")},
		{Label: "committed", Expected: rowsOf(model), Actual: rowsOf(server)},
		{Label: "problems", Expected: []string{model.problems}, Actual: []string{server.problems}},
	})
}

// handlerSchedulesOnPostgres plays the handler schedules one delivery at a time on PostgreSQL, held to the
// receipt-in-commit column, and checks the model told the same story.
func handlerSchedulesOnPostgres(t *testing.T, place *postgres.Place, impl implementation) {
	postgres.EachSchedule(t, place, handler.LoadSchedules, func(t *testing.T, s handler.Schedule, db *postgres.Database) {
		got, trace, err := playDeliveriesOn(db, s, impl.handle)
		if err != nil {
			t.Fatalf("on PostgreSQL: %v\n\nWhat happened:\n%s", err, trace)
		}
		if problem := handler.Judge(s, handler.ReceiptInCommit, got); problem != "" {
			t.Errorf("on PostgreSQL: %s\n\nWhat happened:\n%s", problem, trace)
		}
		mine, modelTrace, _ := playDeliveries(s, impl.handle)
		model := played{db: database.Contents{Tickets: mine.DB.Tickets, Receipts: mine.DB.Receipts}, trace: modelTrace}
		server := played{db: database.Contents{Tickets: got.DB.Tickets, Receipts: got.DB.Receipts}, trace: trace}
		what := fmt.Sprintf("handler schedule %q (%s) with %s, one delivery at a time", s.Name, s.File, impl.column)
		if problem := differ(what, model, server); problem != "" {
			t.Error(problem)
		}
	})
}

// randomDifferentialCases is how many seeded random cases the differential check plays on both databases,
// for each implementation: as many as the TypeScript side's sample.
const randomDifferentialCases = 40

// playRandom plays the seed's random case on db.
func playRandom(db database.Shared, impl implementation, seed uint64) played {
	workers, plans, choices, _ := randomPlans(impl.handle, seed)
	run, err := scheduler.RunWorkers(db, plans, scheduler.FromNumbers(choices), scheduler.Options[handler.Outcome]{Tell: tell})
	if err != nil {
		return played{problems: err.Error(), trace: database.TellTrace(db.TraceLines())}
	}
	var answers []Answer
	for _, w := range workers {
		answers = append(answers, answerOf(run.Endings[w.name], w.name))
	}
	return played{answers: answers, db: db.Committed(), trace: database.TellTrace(db.TraceLines()), lines: db.TraceLines()}
}

// randomRunsAgreeWithPostgres: up to four workers with random events, crashes and picks (the property's
// cases, from fixed seeds), on the model and on PostgreSQL, must tell the same trace and commit the same rows.
func randomRunsAgreeWithPostgres(t *testing.T, place *postgres.Place, impl implementation) {
	for seed := range uint64(randomDifferentialCases) {
		model := playRandom(database.New(), impl, seed)
		server := playRandom(place.FreshFor(t), impl, seed)
		_, _, _, said := randomPlans(impl.handle, seed)
		what := fmt.Sprintf("the random case of seed %d with %s (checkCase's seeds), whose workers are\n%s\n", seed, impl.column, said)
		if problem := differ(what, model, server); problem != "" {
			t.Error(problem)
		}
	}
}
