package endpoint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"workbook/database/postgres"
)

// playedLines is a sequence played one request at a time: each answer, then every committed row.
func playedLines(t *testing.T, s Sequence, store ExploredStore) []string {
	t.Helper()
	clock := scheduleStart
	var lines []string
	for _, step := range s.Steps {
		if step.Do == "wait" {
			clock = clock.Add(time.Duration(step.Minutes) * time.Minute)
			continue
		}
		got := send(buildRoutes(solution, s, &crashingStore{inner: store, crashAt: -1, stepFails: step.StepFails}, &clock), step)
		lines = append(lines, saidAnswer(&got))
	}
	rows, err := store.Committed(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, ticket := range rows.Tickets {
		lines = append(lines, fmt.Sprintf("ticket #%d %s: %s", ticket.ID, ticket.Tenant, ticket.Subject))
	}
	for _, k := range rows.Keys {
		lines = append(lines, fmt.Sprintf("key %s %q %d %s %s", k.Client, k.Key, k.Response.Status, k.Response.Body, k.CreatedAt.UTC().Format(time.RFC3339)))
	}
	for _, r := range rows.Receipts {
		lines = append(lines, fmt.Sprintf("receipt %s #%d %s %s", r.EventID, r.TicketID, r.Subject, r.ReceivedAt.UTC().Format(time.RFC3339)))
	}
	return lines
}

// emptied is one store on PostgreSQL, closed when the test ends, handed out emptied each time: the tables
// truncated and ticket numbers from 1 again (a schema of its own each time would cost ten times as much).
func emptied(t *testing.T, url string) func() *PostgresStore {
	store, err := OpenStore(context.Background(), url, 3)
	if err != nil {
		t.Fatalf("PostgreSQL at %s: %v", urlVariable, err)
	}
	t.Cleanup(store.Close)
	return func() *PostgresStore {
		if _, err := store.pool.Exec(context.Background(), "TRUNCATE tickets, idempotency_keys, receipts; UPDATE ticket_numbers SET last = 0"); err != nil {
			t.Fatal(err)
		}
		return store
	}
}

// TestMemoryStoreAgreesWithPostgres holds the in-memory store the explorations use to PostgreSQL's, as
// harness/postgres/endpoint-store-differential.test.ts does: every schedule's sequence and a seeded sample
// of random ones (ENDPOINT_DIFF_RUNS, 20 unless told) get the same answers and leave the same rows on both.
func TestMemoryStoreAgreesWithPostgres(t *testing.T) {
	fresh := emptied(t, postgres.ServerURL(t))
	all, err := scheduleSequences()
	if err != nil {
		t.Fatal(err)
	}
	for run := range fromEnvironment("ENDPOINT_DIFF_RUNS", 20) {
		s := randomSequence(rand.New(rand.NewPCG(6, uint64(run))), 8)
		all = append(all, namedSequence{fmt.Sprintf("random sequence %d of seed 6", run+1), s})
	}
	for _, named := range all {
		inMemory, onPostgres := playedLines(t, named.sequence, NewMemoryStore()), playedLines(t, named.sequence, fresh())
		if !slices.Equal(inMemory, onPostgres) {
			t.Errorf("%s\n%s\nin memory:\n\t%v\non PostgreSQL:\n\t%v", named.name, saidSequence(named.sequence), inMemory, onPostgres)
		}
	}
}

// TestCrashPointsOnPostgres is a sample of the crash points on PostgreSQL itself: the first request of every
// fourth schedule sequence, crashed at every step and retried, each from empty tables (a first request's
// start: the one store, emptied, serves the request alone and then each crash in turn).
func TestCrashPointsOnPostgres(t *testing.T) {
	fresh := emptied(t, postgres.ServerURL(t))
	all, err := scheduleSequences()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(all); i += 4 {
		s := all[i].sequence
		first := slices.IndexFunc(s.Steps, func(c Call) bool { return c.Do == "send" })
		s.Steps = s.Steps[:first+1]
		problem, err := exploreCrashPoints(solution, s, fresh(), func(ExploredStore) ExploredStore { return fresh() }, everyPoint)
		if err != nil {
			t.Fatal(err)
		}
		if problem != "" {
			t.Errorf("%s, on PostgreSQL, played with a crash at every step:\n%s", all[i].name, problem)
		}
	}
}
