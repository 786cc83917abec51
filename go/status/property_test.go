package status

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// propertySeed and propertyRuns are the made-up schedules every run plays; STATUS_SEED replays one run.
const propertySeed, propertyRuns = 20260707, 300

func seedAndRuns() (int64, int) {
	if s, err := strconv.ParseInt(os.Getenv("STATUS_SEED"), 10, 64); err == nil {
		return s, 1
	}
	return propertySeed, propertyRuns
}

// TestContractMeetsTheSchedules holds the model to the versioned column of every shipped schedule.
func TestContractMeetsTheSchedules(t *testing.T) {
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			got := ExpectedByContract(s.Start, s.Deliveries)
			if problem := Judge(s, VersionedColumn, Played{got.Answers, Store{got.Tickets, got.Receipts}}); problem != "" {
				t.Error(problem)
			}
		})
	}
}

// TestMadeUpSchedules plays made-up schedules against the solution, held to the contract.
func TestMadeUpSchedules(t *testing.T) {
	seed, runs := seedAndRuns()
	if problem := BrokenMadeUpSchedule(Versioned, seed, runs); problem != "" {
		t.Error(problem)
	}
}

// The three mistakes the shipped schedules let through (solutions/wrong/ has them for TypeScript).
func dedupedByText(store *Store, change Change) Answer {
	t := store.ticket(change.TicketID)
	if i := slices.Index(t.Comments, change.Text); i >= 0 {
		return Answer{Kind: "commented", Comment: i + 1}
	}
	return AddComment(store, change)
}

func numberedAcrossTickets(store *Store, change Change) Answer {
	if r := store.receipt(change.ChangeID); r != nil {
		return r.Answer
	}
	total := 0
	for _, t := range store.Tickets {
		total += len(t.Comments)
	}
	t := store.ticket(change.TicketID)
	t.Comments = append(t.Comments, change.Text)
	answer := Answer{Kind: "commented", Comment: total + 1}
	store.Receipts = append(store.Receipts, Receipt{ChangeID: change.ChangeID, Answer: answer})
	return answer
}

func countNow(store *Store, change Change) Answer {
	if store.receipt(change.ChangeID) != nil {
		return Answer{Kind: "commented", Comment: len(store.ticket(change.TicketID).Comments)}
	}
	return AddComment(store, change)
}

// TestMadeUpSchedulesCatchTheNamedMistakes: each mistake fails, shrunk, with the words of its effect.
func TestMadeUpSchedulesCatchTheNamedMistakes(t *testing.T) {
	cases := []struct {
		name       string
		addComment func(*Store, Change) Answer
		says       string
	}{
		{"comments deduplicated by text", dedupedByText, "A comment is told apart by its change's id, not its text"},
		{"comments numbered across tickets", numberedAcrossTickets, "comments are numbered per ticket"},
		{"a repeat answered with the count now", countNow, "a repeat gets the answer its first delivery got"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			problem := BrokenMadeUpSchedule(Rules{SetStatus: SetStatus, AddComment: c.addComment}, propertySeed, propertyRuns)
			for _, words := range []string{`schedule "made-up"`, "STATUS_SEED=", c.says} {
				if !strings.Contains(problem, words) {
					t.Errorf("the made-up schedules should catch %s, saying %q; they said:\n%s", c.name, words, problem)
				}
			}
		})
	}
}
