package race

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
)

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
func randomPlans(impl implementation, seed uint64) ([]propertyWorker, []scheduler.WorkerPlan[handler.Outcome], []int, string) {
	workers, choices := randomCase(rand.New(rand.NewPCG(seed, 3)))
	var plans []scheduler.WorkerPlan[handler.Outcome]
	var said []string
	for _, w := range workers {
		plan := scheduler.WorkerPlan[handler.Outcome]{Name: w.name, Run: func(conn database.Connection) (handler.Outcome, error) { return impl.handle(conn, w.event) }}
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

func checkCase(impl implementation, seed uint64) string {
	workers, plans, choices, said := randomPlans(impl, seed)
	db := database.New()
	run, err := scheduler.RunWorkers(db, plans, scheduler.FromNumbers(choices), scheduler.Options[handler.Outcome]{Tell: tell})
	if err != nil {
		return err.Error()
	}
	if problem := judgeOneTicketPerEvent(run, workers); problem != "" {
		return fmt.Sprintf("%s\n\nWorkers:\n%s\n\n%s", problem, said, database.TellTrace(db.Trace))
	}
	return ""
}

// TestOneTicketPerEventProperty: up to four workers, random events, crashes and interleavings. Atomic
// keeps one ticket per event in every case; Separate does not. Cases come from fixed seeds, so a failure
// names its seed and replays the same.
func TestOneTicketPerEventProperty(t *testing.T) {
	const cases = 300
	t.Run("atomic keeps it", func(t *testing.T) {
		for seed := range uint64(cases) {
			if problem := checkCase(implementations[1], seed); problem != "" {
				t.Fatalf("seed %d: %s", seed, problem)
			}
		}
	})
	t.Run("separate breaks it", func(t *testing.T) {
		for seed := range uint64(cases) {
			if problem := checkCase(implementations[0], seed); problem != "" {
				t.Logf("seed %d finds it: %s", seed, strings.SplitN(problem, "\n", 2)[0])
				return
			}
		}
		t.Errorf("%d random cases never caught Separate leaving two tickets for one event", cases)
	})
}
