package race

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
)

// The exploration of every interleaving, and the property's random cases: set-ups and judges that tests.go
// runs, as harness/race/explore.ts holds TypeScript's.

var evt42 = handler.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}

var workerNames = []string{"A", "B", "C"}

// sameEvent sets up n workers that all get evt-42.
func sameEvent(handle Handle, n int) func() (*database.Database, []scheduler.WorkerPlan[handler.Outcome], scheduler.Options[handler.Outcome]) {
	return func() (*database.Database, []scheduler.WorkerPlan[handler.Outcome], scheduler.Options[handler.Outcome]) {
		var workers []Worker
		for _, name := range workerNames[:n] {
			workers = append(workers, Worker{Name: name, Event: evt42})
		}
		return database.New(), plans(workers, handle), scheduler.Options[handler.Outcome]{Tell: tell}
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

func explore(t *testing.T, handle Handle, workers int, opts scheduler.ExploreOptions) scheduler.Explored[handler.Outcome] {
	t.Helper()
	explored, err := scheduler.ExploreAll(sameEvent(handle, workers), judgeSameEvent, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d runs, %d complete, %d pruned, %d wrong", explored.Runs, explored.Complete, explored.Pruned, explored.Failed)
	return explored
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

// The few identities the property draws from: a repeat, the same key with another request, another event,
// and the same event id from another tenant.
var propertyEvents = []handler.Webhook{
	evt42,
	{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot export report"},
	{Tenant: "acme", Source: "helpdesk", EventID: "evt-43", Subject: "Cannot sign in"},
	{Tenant: "globex", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"},
}

// propertyWorker is one worker of a random case: its event, and how many operations it lives for (-1: all).
type propertyWorker struct {
	event      handler.Webhook
	crashAfter int
	name       string
}

func randomCase(r *rand.Rand) ([]propertyWorker, []int) {
	workers := make([]propertyWorker, 1+r.IntN(4))
	for i := range workers {
		workers[i] = propertyWorker{propertyEvents[r.IntN(len(propertyEvents))], -1, string(rune('A' + i))}
		if r.IntN(4) == 0 {
			workers[i].crashAfter = r.IntN(8)
		}
	}
	choices := make([]int, r.IntN(41))
	for i := range choices {
		choices[i] = r.IntN(24)
	}
	return workers, choices
}

// judgeOneTicketPerEvent: every ticket has exactly one receipt (one without is a duplicate nobody can find);
// every worker that did not crash answers with its event's ticket, or a conflict when the receipt's subject
// is not its own; and no two workers created the same event.
func judgeOneTicketPerEvent(run scheduler.Run[handler.Outcome], workers []propertyWorker) string {
	committed := run.DB.Committed()
	var problems []string
	for _, ticket := range committed.Tickets {
		holders := 0
		for _, r := range committed.Receipts {
			if r.TicketID == ticket.ID {
				holders++
			}
		}
		if holders != 1 {
			problems = append(problems, fmt.Sprintf("ticket #%d has %d receipts (a ticket without one is a duplicate nobody can find)", ticket.ID, holders))
		}
	}
	createdBy := map[[3]string]string{} // by tenant, source and event id, field by field
	for _, w := range workers {
		answer := answerOf(run.Endings[w.name], w.name)
		if answer.Kind == "crashed" {
			continue
		}
		var receipt *handler.Receipt
		for _, r := range committed.Receipts {
			if handler.SameEvent(r.Event, w.event) {
				receipt = &r
			}
		}
		id := handler.SaidIdentity(w.event)
		if receipt == nil {
			problems = append(problems, fmt.Sprintf("%s %s, but %s has no receipt", w.name, saidAnswer(answer), id))
			continue
		}
		want := Answer{Worker: w.name, Kind: "replayed", TicketID: receipt.TicketID}
		if receipt.Subject != w.event.Subject {
			want = Answer{Worker: w.name, Kind: "conflict"}
		}
		got := answer
		if got.Kind == "created" {
			got.Kind = "replayed" // created or replayed, it names the ticket
		}
		if got != want {
			problems = append(problems, fmt.Sprintf("%s %s; %s %q should get %s", w.name, saidAnswer(answer), id, w.event.Subject, saidAnswer(want)))
		}
		if answer.Kind == "created" {
			event := [3]string{w.event.Tenant, w.event.Source, w.event.EventID}
			if earlier, ok := createdBy[event]; ok {
				problems = append(problems, fmt.Sprintf("%s and %s both answered created for %s", earlier, w.name, id))
			}
			createdBy[event] = w.name
		}
	}
	return strings.Join(problems, "; ")
}

// randomPlans turns a seed into workers, their plans and picks, and the workers in words.
func randomPlans(handle Handle, seed uint64) ([]propertyWorker, []scheduler.WorkerPlan[handler.Outcome], []int, string) {
	workers, choices := randomCase(rand.New(rand.NewPCG(seed, 3)))
	var plans []scheduler.WorkerPlan[handler.Outcome]
	var said []string
	for _, w := range workers {
		plan := scheduler.WorkerPlan[handler.Outcome]{Name: w.name, Run: func(conn database.Connection) (handler.Outcome, error) { return handle(conn, w.event) }}
		line := fmt.Sprintf("%s: %s %q", w.name, handler.SaidIdentity(w.event), w.event.Subject)
		if w.crashAfter >= 0 {
			plan.Crash = &scheduler.CrashPoint{When: "after-operations", Count: w.crashAfter}
			line += fmt.Sprintf(", crashes after %d operations", w.crashAfter)
		}
		plans = append(plans, plan)
		said = append(said, line)
	}
	return workers, plans, choices, strings.Join(said, "\n")
}

func checkCase(handle Handle, seed uint64) string {
	workers, plans, choices, said := randomPlans(handle, seed)
	db := database.New()
	run, err := scheduler.RunWorkers(db, plans, scheduler.FromNumbers(choices), scheduler.Options[handler.Outcome]{Tell: tell})
	if open := (*scheduler.LeftOpen)(nil); errors.As(err, &open) {
		return fmt.Sprintf("%v\n\nWhat happened, step by step:\n%s", err, database.TellTrace(db.Trace))
	}
	if err != nil {
		return err.Error()
	}
	if problem := judgeOneTicketPerEvent(run, workers); problem != "" {
		return fmt.Sprintf("%s\n\nWorkers:\n%s\n\n%s", problem, said, database.TellTrace(db.Trace))
	}
	return ""
}
