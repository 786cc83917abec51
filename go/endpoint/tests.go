package endpoint

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"workbook/database/postgres"
	"workbook/handler"
	"workbook/schedules"
)

// Exercise 06's tests of two routes, as harness/endpoint/tests.ts and explorations.ts are TypeScript's. Each
// takes the code under test, so the stub's tests and the solution's are the same calls:
//
//	code := endpoint.Code{Tickets: Tickets, Webhooks: Webhooks}
//	endpoint.PlaySchedules(t, code)
//
//	PlaySchedules(t, code)          every schedules/endpoint file over HTTP on PostgreSQL, under each policy
//	PlayWebhookSchedules(t, code)   the handler schedules sent to POST /webhooks, as receipt-in-commit
//	Explore(t, code)                every crash point, every overlap, and random sequences against the model
//
// PostgreSQL is the tests' own (go/database/postgres starts one, or WORKBOOK_POSTGRES_URL names one), asked
// for only by the two players: the explorations play on the in-memory store, which
// TestMemoryStoreAgreesWithPostgres holds to PostgreSQL's.

// PlaySchedules plays every schedules/endpoint file over HTTP on PostgreSQL, under each policy it names,
// each a subtest named policy/schedule. A schedule that goes the same way under a later policy as under its
// first says so in one line, so a red run tells each story once: the later policy's subtest, when it fails,
// plays the first policy too (plays are deterministic) and compares the two stories.
func PlaySchedules(t *testing.T, code Code) {
	t.Helper()
	all, err := schedules.Load[Schedule]("endpoint")
	if err != nil {
		t.Fatal(err)
	}
	stores := NewStores(postgres.ServerURL(t))
	t.Cleanup(stores.Close)
	for _, s := range all {
		for _, remember := range s.Remember {
			t.Run(string(remember)+"/"+s.Name, func(t *testing.T) {
				t.Parallel()
				schedules.Playing(t, s, string(remember))
				problem := judge(s, remember, play(t, code, s, remember, stores))
				if first := s.Remember[0]; problem != "" && remember != first {
					problem = toldOnce(s.Name, first, remember, judge(s, first, play(t, code, s, first, stores)), problem)
				}
				if problem != "" {
					t.Error(problem)
				}
			})
		}
	}
}

// toldOnce is a schedule's story under a later policy: one line when it is the first policy's story, word
// for word but for the policy, else the story as it is.
func toldOnce(name string, first, later Remember, firstStory, laterStory string) string {
	said := func(remember Remember) string { return fmt.Sprintf("remember: %q", remember) }
	if firstStory == "" || strings.ReplaceAll(firstStory, said(first), said(later)) != laterStory {
		return laterStory
	}
	return fmt.Sprintf("Schedule %q goes the same way under %s as under %s: its story is told there (%s/%s)", name, said(later), said(first), first, name)
}

// PlayWebhookSchedules sends the handler schedules to POST /webhooks over HTTP on PostgreSQL, and holds the
// answers to the receipt-in-commit column, in the handler schedules' words.
func PlayWebhookSchedules(t *testing.T, code Code) {
	t.Helper()
	all, err := schedules.Load[handler.Schedule]("handler")
	if err != nil {
		t.Fatal(err)
	}
	stores := NewStores(postgres.ServerURL(t))
	t.Cleanup(stores.Close)
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			schedules.Playing(t, s, handler.ReceiptInCommit)
			got, stopped := playWebhooks(t, code, s, stores)
			if stopped != "" {
				t.Fatalf("Schedule %q (%s) over HTTP: %s", s.Name, s.Title, stopped)
			}
			if problem := handler.Judge(s, handler.ReceiptInCommit, got); problem != "" {
				t.Errorf("over HTTP, %s", problem)
			}
		})
	}
}

// Explore holds the routes, on the in-memory store, to every crash point of every request, every overlap
// of two requests with one key or one event, and the model of the contract, each a subtest. A plain go test
// plays a fixed seed and few random sequences; ENDPOINT_CRASH_RUNS, ENDPOINT_RUNS and ENDPOINT_SEED play
// more or others (verify plays more).
func Explore(t *testing.T, code Code) {
	t.Helper()
	z := loopSizes()
	for _, exploration := range []struct {
		name    string
		problem func(Code, sizes) (string, error)
	}{
		{"A crash at any step of a request, then its retry: one ticket, the first answer", crashProblem},
		{"Two requests with one key (or one event) at once, at every interleaving", overlapProblem},
		{"Random sequences against a model of the contract", func(code Code, z sizes) (string, error) { return modelProblem(code, z), nil }},
	} {
		t.Run(exploration.name, func(t *testing.T) {
			problem, err := exploration.problem(code, z)
			if err != nil {
				t.Fatal(err)
			}
			if problem != "" {
				t.Error(problem)
			}
		})
	}
}

// crashProblem is the first broken promise over the schedules' sequences, then the random ones.
func crashProblem(code Code, z sizes) (string, error) {
	all, err := scheduleSequences()
	if err != nil {
		return "", err
	}
	for _, named := range all {
		problem, err := exploreCrashPoints(code, named.sequence, NewMemoryStore(), inMemory, everyPoint)
		if problem != "" || err != nil {
			return fmt.Sprintf("%s, played with a crash at every step:\n%s", named.name, problem), err
		}
	}
	for run := range uint64(z.crashSequences) {
		seed := z.seed + run
		sequence := randomSequence(rand.New(rand.NewPCG(seed, 1)), 8)
		problem, err := exploreCrashPoints(code, sequence, NewMemoryStore(), inMemory, everyPoint)
		if problem != "" || err != nil {
			return fmt.Sprintf("Random sequence %d of seed %d (ENDPOINT_SEED=%d), played with a crash at every step:\n%s", run+1, z.seed, seed, problem), err
		}
	}
	return "", nil
}

// overlapProblem is the first bad interleaving of any overlap.
func overlapProblem(code Code, _ sizes) (string, error) {
	for _, o := range overlaps() {
		if problem := exploreOverlaps(code, o, 5_000); problem != "" {
			return problem, nil
		}
	}
	return "", nil
}
