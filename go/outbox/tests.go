package outbox

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"workbook/core"
	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
	"workbook/schedules"
)

// Exercise 05's tests of a sender, as harness/outbox/play.ts, property.ts and crash-points.ts are
// TypeScript's. Each takes the sender under test, so the stub's tests and the solution's are the same calls:
//
//	send := outbox.OutboxRelay(HandleWithOutbox, Relay)
//	outbox.PlaySchedules(t, send)
//
//	OutboxRelay(handle, relay)                  the outbox-relay column: a handler and its relay
//	Inside(handle)                              the send-inside column: a handler that sends itself
//	PlaySchedules(t, send)                      every schedules/outbox file, held to send's column
//	TicketDoesNotWaitForTheProvider(t, send)    the provider down: the ticket and its row still commit
//	ProviderDownFailsTheDelivery(t, send)       the provider down: the delivery fails, nothing is saved
//	Property(t, send)                           random rounds, crashes anywhere (OUTBOX_CASES, OUTBOX_SEED)
//	PropertyBreaks(t, send)                     the same cases find an email that should not be
//	EveryCrashPoint(t, send)                    each crash point of the handler and of the relay, in turn
//	CrashPointsBreak(t, send)                   some crash point breaks it

// OutboxRelay is the outbox-relay column: handle saves the outbox row in its transaction, relay sends it.
func OutboxRelay(handle func(database.Connection, handler.Webhook) (handler.Outcome, error), relay func(database.Connection, Mail) error) Sender {
	return Sender{OutboxRelayColumn, func(conn database.Connection, event handler.Webhook, _ Mail) (handler.Outcome, error) {
		return handle(conn, event)
	}, relay}
}

// Inside is the send-inside column: handle sends the email itself, and there is no relay.
func Inside(handle func(database.Connection, handler.Webhook, Mail) (handler.Outcome, error)) Sender {
	return Sender{SendInsideColumn, handle, nil}
}

// PlaySchedules plays every schedules/outbox file with send, held to its column.
func PlaySchedules(t *testing.T, send Sender) {
	t.Helper()
	defer scheduler.OneCore()()
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the schedules, as "+send.column, func(t *testing.T) {
		for _, s := range all {
			t.Run(s.Name, func(t *testing.T) {
				schedules.Playing(t, s, send.column)
				if problem := judge(s, send.column, play(s, send)); problem != "" {
					t.Error(problem)
				}
			})
		}
	})
}

var evt42 = handler.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}

// deliverWhileDown delivers evt-42 once with the provider down, and says how the delivery ended.
func deliverWhileDown(send Sender) (scheduler.Ending[handler.Outcome], database.Contents, string, error) {
	w := world{database.New(), NewMailProvider()}
	w.provider.GoDown()
	run, err := scheduler.RunWorkers(w.db, []scheduler.WorkerPlan[handler.Outcome]{{
		Name: "delivery 1",
		Run: func(conn database.Connection) (handler.Outcome, error) {
			return send.handle(conn, evt42, workerMail{w, conn})
		},
	}}, scheduler.OneAtATime(), scheduler.Options[handler.Outcome]{Tell: func(o handler.Outcome) string { return "answers: " + saidOutcome(o) }})
	if err != nil {
		return scheduler.Ending[handler.Outcome]{}, database.Contents{}, "", err
	}
	return run.Endings["delivery 1"], w.db.Committed(), database.TellTrace(w.db.TraceLines()), nil
}

// TicketDoesNotWaitForTheProvider: while the provider is down, evt-42 still gets created #1, and its
// outbox row commits, pending.
func TicketDoesNotWaitForTheProvider(t *testing.T, send Sender) {
	t.Helper()
	ending, committed, story, err := deliverWhileDown(send)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, row := range committed.Outbox {
		rows = append(rows, row.Key+" "+string(row.State))
	}
	if ending.Kind != scheduler.Answered || ending.Value != (handler.Outcome{Kind: "created", TicketID: 1}) ||
		strings.Join(rows, ", ") != "ticket-confirmation/acme/1 pending" {
		t.Errorf("The provider is down and evt-42 arrives: expected created #1 and the row ticket-confirmation/acme/1 pending; "+
			"the handler ended %s, leaving the outbox rows [%s]. The handler never touches the provider: the relay does.\n\nWhat happened:\n%s",
			saidEnding(ending), strings.Join(rows, ", "), story)
	}
}

// ProviderDownFailsTheDelivery: sending inside the transaction, a provider that is down fails the delivery,
// and nothing is saved.
func ProviderDownFailsTheDelivery(t *testing.T, send Sender) {
	t.Helper()
	ending, committed, story, err := deliverWhileDown(send)
	if err != nil {
		t.Fatal(err)
	}
	if ending.Kind != scheduler.Failed || !errors.Is(ending.Err, ErrProviderDown) || len(committed.Tickets) != 0 {
		t.Errorf("The provider is down and evt-42 arrives: expected the delivery to fail with ProviderDown and no ticket; it ended %s, with %d tickets.\n\nWhat happened:\n%s",
			saidEnding(ending), len(committed.Tickets), story)
	}
}

func saidEnding(e scheduler.Ending[handler.Outcome]) string {
	switch e.Kind {
	case scheduler.Answered:
		return "answering " + saidOutcome(e.Value)
	case scheduler.Failed:
		return fmt.Sprintf("with %s: %v", errorName(e.Err), e.Err)
	}
	return "crashed (no answer)"
}

// outboxSeeds are the property's cases: 50 in the learner's go test, OUTBOX_CASES in verify (150), or the
// one OUTBOX_SEED names.
func outboxSeeds() []uint64 { return core.Seeds("OUTBOX_CASES", "OUTBOX_SEED", 50) }

func propertyCase(send Sender, seed uint64) string {
	return checkRounds(send, randomRounds(rand.New(rand.NewPCG(seed, 5))))
}

// Property: deliveries, relay runs and outages overlapping at random, crashing anywhere, then one clean relay
// run: every committed ticket has exactly one email, and no email is about a ticket that does not exist. The
// cases come from fixed seeds, so a failure names its seed and replays the same.
func Property(t *testing.T, send Sender) {
	t.Helper()
	defer scheduler.OneCore()()
	seeds := outboxSeeds()
	for i, seed := range seeds {
		if problem := propertyCase(send, seed); problem != "" {
			t.Fatalf("The outbox property broke at case %d of %d.\nReplay it: OUTBOX_SEED=%d\n\n%s", i+1, len(seeds), seed, problem)
		}
	}
}

// PropertyBreaks: the property's cases find send leaving an email about a ticket that does not exist, or a
// ticket without its one email.
func PropertyBreaks(t *testing.T, send Sender) {
	t.Helper()
	defer scheduler.OneCore()()
	seeds := outboxSeeds()
	for _, seed := range seeds {
		problem := propertyCase(send, seed)
		if strings.Contains(problem, "which does not exist") || strings.Contains(problem, "delivered emails, not 1") {
			t.Logf("OUTBOX_SEED=%d finds it:\n%s", seed, strings.SplitN(problem, "\n\n", 2)[0])
			return
		}
	}
	t.Errorf("%d random cases never caught it sending an email for a ticket that does not exist", len(seeds))
}

// EveryCrashPoint: send keeps "every committed ticket has exactly one email" at every crash point of the
// handler and of the relay, one at a time.
func EveryCrashPoint(t *testing.T, send Sender) {
	t.Helper()
	defer scheduler.OneCore()()
	plans := crashPlans()
	var broken []string
	for _, plan := range plans {
		if problem := checkRounds(send, plan); problem != "" {
			broken = append(broken, problem)
		}
	}
	if len(broken) > 0 {
		t.Errorf("%d of %d crash points break %q. The first:\n%s", len(broken), len(plans), "every committed ticket has exactly one email", broken[0])
	}
}

// CrashPointsBreak: some crash point of the handler breaks send's promise.
func CrashPointsBreak(t *testing.T, send Sender) {
	t.Helper()
	defer scheduler.OneCore()()
	plans := crashPlans()
	var broken []string
	for _, plan := range plans {
		if problem := checkRounds(send, plan); problem != "" {
			broken = append(broken, strings.SplitN(problem, "\n\n", 2)[0])
		}
	}
	if len(broken) == 0 {
		t.Fatal("sending inside the transaction kept the promise at every crash point")
	}
	t.Logf("%d of %d crash points break it; the first: %s", len(broken), len(plans), broken[0])
}
