package race

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
)

var evt42 = handler.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}

var workerNames = []string{"A", "B", "C"}

// sameEvent sets up n workers that all get evt-42.
func sameEvent(impl implementation, n int) func() (*database.Database, []scheduler.WorkerPlan[handler.Outcome], scheduler.Options[handler.Outcome]) {
	return func() (*database.Database, []scheduler.WorkerPlan[handler.Outcome], scheduler.Options[handler.Outcome]) {
		var workers []Worker
		for _, name := range workerNames[:n] {
			workers = append(workers, Worker{Name: name, Event: evt42})
		}
		return database.New(), plans(workers, impl.handle), scheduler.Options[handler.Outcome]{Tell: tell}
	}
}

// judgeSameEvent holds workers that all got evt-42, none crashing, to one ticket, one receipt, one
// worker that created it and the rest replaying it.
func judgeSameEvent(run scheduler.Run[handler.Outcome]) string {
	committed := run.DB.Committed()
	var problems []string
	if n := len(committed.Tickets); n != 1 {
		problems = append(problems, fmt.Sprintf("%d tickets, not 1", n))
	}
	if n := len(committed.Receipts); n != 1 {
		problems = append(problems, fmt.Sprintf("%d receipts, not 1", n))
	}
	id := 0
	if len(committed.Receipts) > 0 {
		id = committed.Receipts[0].TicketID
	}
	created := 0
	for _, name := range slices.Sorted(maps.Keys(run.Endings)) {
		answer := answerOf(run.Endings[name], name)
		if answer.Kind == "created" {
			created++
		}
		if (answer.Kind != "created" && answer.Kind != "replayed") || answer.TicketID != id {
			problems = append(problems, name+" "+saidAnswer(answer))
		}
	}
	if created != 1 {
		problems = append(problems, fmt.Sprintf("%d workers answered created", created))
	}
	return strings.Join(problems, "; ")
}

func explore(t *testing.T, impl implementation, workers int, opts scheduler.ExploreOptions) scheduler.Explored[handler.Outcome] {
	t.Helper()
	explored, err := scheduler.ExploreAll(sameEvent(impl, workers), judgeSameEvent, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d runs, %d complete, %d pruned, %d wrong", explored.Runs, explored.Complete, explored.Pruned, explored.Failed)
	return explored
}

// TestEveryInterleaving runs workers on evt-42 in every order their database operations can take.
func TestEveryInterleaving(t *testing.T) {
	t.Run("separate, two workers: some orders leave two tickets", func(t *testing.T) {
		explored := explore(t, implementations[0], 2, scheduler.ExploreOptions{NoPrune: true})
		if explored.Complete != 20 {
			t.Errorf("%d complete runs; six operations, three each, interleave 20 ways", explored.Complete)
		}
		if explored.Failed == 0 {
			t.Fatal("Separate survived every interleaving: the race this exercise is about did not happen")
		}
		first := explored.Failures[0]
		if !strings.Contains(first.Problem, "2 tickets, not 1") {
			t.Errorf("the first wrong run says %q, want two tickets", first.Problem)
		}
		t.Logf("separate breaks in %d of %d interleavings. The first: %s\n%s", explored.Failed, explored.Complete, first.Problem, database.TellTrace(first.Run.DB.TraceLines()))
	})
	for _, workers := range []int{2, 3} {
		t.Run(fmt.Sprintf("atomic, %d workers: one ticket, one receipt, one created and the rest replayed", workers), func(t *testing.T) {
			// Two workers: every order, none skipped. Three: every state they can reach.
			explored := explore(t, implementations[1], workers, scheduler.ExploreOptions{NoPrune: workers == 2})
			if workers == 2 && explored.Complete < 20 {
				t.Errorf("only %d complete runs", explored.Complete)
			}
			if explored.Failed > 0 {
				f := explored.Failures[0]
				t.Errorf("%d of %d interleavings break it. The first: %s\n%s", explored.Failed, explored.Complete, f.Problem, database.TellTrace(f.Run.DB.TraceLines()))
			}
		})
	}
}

// oneTicketPerEvent judges a run of workers that all got evt-42, some crashing: at most one ticket and
// one receipt, and every worker that answered names the receipt's ticket.
func oneTicketPerEvent(run scheduler.Run[handler.Outcome]) string {
	committed := run.DB.Committed()
	if len(committed.Tickets) > 1 || len(committed.Receipts) > 1 {
		return fmt.Sprintf("%d tickets and %d receipts for one event", len(committed.Tickets), len(committed.Receipts))
	}
	for _, name := range []string{"A", "B"} {
		ending := run.Endings[name]
		switch {
		case ending.Kind == scheduler.Crashed:
		case ending.Kind == scheduler.Failed:
			return fmt.Sprintf("%s failed: %v", name, ending.Err)
		case len(committed.Receipts) == 0 || ending.Value.TicketID != committed.Receipts[0].TicketID:
			return fmt.Sprintf("%s answered %+v, but the receipts are %+v", name, ending.Value, committed.Receipts)
		}
	}
	return ""
}

// TestEveryInterleavingWithACrash: A dies after each of its operations in turn, in every order; Atomic
// still leaves at most one ticket, and B answers with it.
func TestEveryInterleavingWithACrash(t *testing.T) {
	for _, crash := range []Operation{"find-receipt", "save-ticket", "save-receipt", "commit"} {
		t.Run("atomic, A crashes after "+string(crash), func(t *testing.T) {
			setUp := func() (*database.Database, []scheduler.WorkerPlan[handler.Outcome], scheduler.Options[handler.Outcome]) {
				workers := []Worker{{Name: "A", Event: evt42, CrashAfter: crash}, {Name: "B", Event: evt42}}
				return database.New(), plans(workers, Atomic), scheduler.Options[handler.Outcome]{Tell: tell}
			}
			explored, err := scheduler.ExploreAll(setUp, oneTicketPerEvent, scheduler.ExploreOptions{NoPrune: true})
			if err != nil {
				t.Fatal(err)
			}
			if explored.Complete == 0 || explored.Failed > 0 {
				msg := fmt.Sprintf("%d of %d complete runs went wrong", explored.Failed, explored.Complete)
				if explored.Failed > 0 {
					msg += ": " + explored.Failures[0].Problem + "\n" + database.TellTrace(explored.Failures[0].Run.DB.TraceLines())
				}
				t.Error(msg)
			}
		})
	}
}

// createEveryTime is the first handler (exercise 01) over the database: every delivery saves a ticket.
func createEveryTime(conn database.Connection, event handler.Webhook) (handler.Outcome, error) {
	id, err := conn.SaveTicket(event.Tenant, event.Subject)
	if err != nil {
		return handler.Outcome{}, err
	}
	return handler.Outcome{Kind: "created", TicketID: id}, nil
}

// TestTheFirstHandlerTwoAtOnce pins the lesson's section 09: two workers get the same event at once, and
// create every time makes two tickets, in every interleaving.
func TestTheFirstHandlerTwoAtOnce(t *testing.T) {
	explored, err := scheduler.ExploreAll(sameEvent(implementation{"create-every-time", createEveryTime}, 2), func(run scheduler.Run[handler.Outcome]) string {
		created := 0
		for name, ending := range run.Endings {
			if answerOf(ending, name).Kind == "created" {
				created++
			}
		}
		if n := len(run.DB.Committed().Tickets); n != 2 || created != 2 {
			return fmt.Sprintf("%d tickets and %d workers answered created, not 2 and 2", n, created)
		}
		return ""
	}, scheduler.ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if explored.Complete != 2 {
		t.Errorf("%d complete runs; one save each has two orders", explored.Complete)
	}
	for _, failure := range explored.Failures {
		t.Errorf("%s\n%s", failure.Problem, database.TellTrace(failure.Run.DB.TraceLines()))
	}
}
