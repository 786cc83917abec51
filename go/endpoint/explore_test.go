package endpoint

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// crashProblem is the first broken promise over the schedules' sequences, then the random ones.
func crashProblem(z sizes) (string, error) {
	all, err := scheduleSequences()
	if err != nil {
		return "", err
	}
	for _, named := range all {
		problem, err := exploreCrashPoints(named.sequence, NewMemoryStore(), inMemory, everyPoint)
		if problem != "" || err != nil {
			return fmt.Sprintf("%s, played with a crash at every step:\n%s", named.name, problem), err
		}
	}
	for run := range uint64(z.crashSequences) {
		seed := z.seed + run
		sequence := randomSequence(rand.New(rand.NewPCG(seed, 1)), 8)
		problem, err := exploreCrashPoints(sequence, NewMemoryStore(), inMemory, everyPoint)
		if problem != "" || err != nil {
			return fmt.Sprintf("Random sequence %d of seed %d (ENDPOINT_SEED=%d), played with a crash at every step:\n%s", run+1, z.seed, seed, problem), err
		}
	}
	return "", nil
}

func overlapProblem(sizes) (string, error) {
	for _, o := range overlaps() {
		if problem := exploreOverlaps(o, 5_000); problem != "" {
			return problem, nil
		}
	}
	return "", nil
}

// TestExplorations holds the routes, on the in-memory store, to every crash point of every request, every
// overlap of two requests with one key or one event, and the model of the contract, as TypeScript's
// explorations do (harness/endpoint/explorations.ts), in their words. Normal go test plays a fixed seed and
// few random sequences; ENDPOINT_CRASH_RUNS, ENDPOINT_RUNS and ENDPOINT_SEED play more (verify does).
func TestExplorations(t *testing.T) {
	z := loopSizes()
	for _, exploration := range []struct {
		name    string
		problem func(sizes) (string, error)
	}{
		{"A crash at any step of a request, then its retry: one ticket, the first answer", crashProblem},
		{"Two requests with one key (or one event) at once, at every interleaving", overlapProblem},
		{"Random sequences against a model of the contract", func(z sizes) (string, error) { return modelProblem(z), nil }},
	} {
		t.Run(exploration.name, func(t *testing.T) {
			problem, err := exploration.problem(z)
			if err != nil {
				t.Fatal(err)
			}
			if problem != "" {
				t.Error(problem)
			}
		})
	}
}
