package outbox

// The property's random rounds and their judge, which tests.go runs, as harness/outbox/property.ts holds
// TypeScript's.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
)

// A few identities, so repeats, races and conflicts are common: evt-42 twice over, once with other words.
var propertyEvents = []handler.Webhook{
	{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"},
	{Tenant: "acme", Source: "helpdesk", EventID: "evt-43", Subject: "Cannot export report"},
	{Tenant: "globex", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"},
	{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot export report"},
}

// workerSpec is one worker of a round: a delivery of one of the events, or a relay run, and its crash.
type workerSpec struct {
	deliver bool
	event   int
	crash   *scheduler.CrashPoint
}

// round is workers overlapping in the order picks says, with the provider up or down.
type round struct {
	providerDown bool
	workers      []workerSpec
	picks        []int
}

func randomCrash(r *rand.Rand, deliver bool) *scheduler.CrashPoint {
	if r.IntN(2) == 0 { // half the workers live
		return nil
	}
	if deliver {
		return []*scheduler.CrashPoint{
			{When: "before-commit"}, {When: "before-answering"}, {When: "after-operations", Count: r.IntN(7)},
		}[r.IntN(3)]
	}
	return []*scheduler.CrashPoint{
		{When: "after", Operation: "pending-outbox"},
		{When: "after", Operation: "send-email", Nth: 1 + r.IntN(3)},
		{When: "after", Operation: "mark-sent", Nth: 1 + r.IntN(3)},
		{When: "after-operations", Count: r.IntN(9)},
	}[r.IntN(4)]
}

func randomRounds(r *rand.Rand) []round {
	rounds := make([]round, 1+r.IntN(4))
	for i := range rounds {
		rounds[i].providerDown = r.IntN(4) == 0
		for range 1 + r.IntN(3) {
			deliver := r.IntN(5) < 3
			rounds[i].workers = append(rounds[i].workers, workerSpec{deliver, r.IntN(len(propertyEvents)), randomCrash(r, deliver)})
		}
		for range r.IntN(41) {
			rounds[i].picks = append(rounds[i].picks, r.IntN(6))
		}
	}
	return rounds
}

func tellRounds(rounds []round) string {
	var lines []string
	d, rl := 0, 0
	for i, rd := range rounds {
		var workers []string
		for _, w := range rd.workers {
			crash := ""
			if w.crash != nil {
				crash = fmt.Sprintf(", crashes %+v", *w.crash)
			}
			if w.deliver {
				d++
				e := propertyEvents[w.event]
				workers = append(workers, fmt.Sprintf("D%d delivers %s %q%s", d, handler.SaidIdentity(e), e.Subject, crash))
			} else {
				rl++
				workers = append(workers, fmt.Sprintf("R%d relays%s", rl, crash))
			}
		}
		down := ""
		if rd.providerDown {
			down = " (the provider is down)"
		}
		lines = append(lines, fmt.Sprintf("round %d%s: %s", i+1, down, strings.Join(workers, "; ")))
	}
	return strings.Join(lines, "\n")
}

// checkRounds plays the rounds on the model, then one clean relay run, and returns what broke the property:
// every committed ticket has exactly one delivered email, no email is about a ticket that does not exist,
// and every ticket has its receipt.
func checkRounds(send Sender, rounds []round) string {
	return checkRoundsOn(database.New(), send, rounds)
}

// roundsPlayed is what rounds left: the committed rows, the inbox, the workers that failed, and the trace
// with where each round's part of it begins. The stories are told when asked for (a failure, the grader's
// observer): a passing case, one of many, never needs them.
type roundsPlayed struct {
	committed database.Contents
	inbox     []Email
	problems  []string
	lines     []database.TraceLine
	rounds    []roundLines
}

// roundLines is one round's label, and its part of the trace: lines from up to to.
type roundLines struct {
	label    string
	from, to int
}

// stories is each round's story: its label, then its trace.
func (p roundsPlayed) stories() []string {
	stories := make([]string, len(p.rounds))
	for i, r := range p.rounds {
		stories[i] = r.label + "\n" + database.TellTrace(p.lines[r.from:r.to])
	}
	return stories
}

// trace is everything that happened, told.
func (p roundsPlayed) trace() string { return database.TellTrace(p.lines) }

// checkRoundsOn is checkRounds on db: the model, or PostgreSQL's empty tables (postgres.go).
func checkRoundsOn(db database.Shared, send Sender, rounds []round) string {
	return judgeRounds(rounds, playRoundsOn(db, send, rounds))
}

// playRoundsOn plays the rounds on db, then one clean relay run; judgeRounds says whether what they left
// keeps the property (the grader's Go observer plays them apart, as harness/outbox/rounds.ts's playRounds).
func playRoundsOn(db database.Shared, send Sender, rounds []round) roundsPlayed {
	w := world{db, NewMailProvider()}
	var problems []string
	var told []roundLines
	runRound := func(label string, plans []scheduler.WorkerPlan[handler.Outcome], picks []int) {
		from := len(w.db.TraceLines())
		run, err := scheduler.RunWorkers(w.db, plans, scheduler.FromNumbers(picks), scheduler.Options[handler.Outcome]{})
		told = append(told, roundLines{label, from, len(w.db.TraceLines())})
		if err != nil {
			problems = append(problems, err.Error())
			return
		}
		// In the order the round declared its workers, so the same run always says the same.
		for _, plan := range plans {
			ending := run.Endings[plan.Name]
			// Sending inside the handler fails the delivery while the provider is down: the sender retries later.
			if ending.Kind == scheduler.Failed && !(errors.Is(ending.Err, ErrProviderDown) && strings.HasPrefix(plan.Name, "D")) {
				problems = append(problems, fmt.Sprintf("%s failed: %v", plan.Name, ending.Err))
			}
		}
	}
	relayPlan := func(name string, crash *scheduler.CrashPoint) scheduler.WorkerPlan[handler.Outcome] {
		return scheduler.WorkerPlan[handler.Outcome]{Name: name, Crash: crash, Run: func(conn database.Connection) (handler.Outcome, error) {
			return handler.Outcome{}, send.relay(conn, workerMail{w, conn})
		}}
	}
	d, r := 0, 0
	for i, rd := range rounds {
		if rd.providerDown {
			w.provider.GoDown()
		} else {
			w.provider.ComeBack()
		}
		var plans []scheduler.WorkerPlan[handler.Outcome]
		for _, spec := range rd.workers {
			if spec.deliver {
				d++
				event := propertyEvents[spec.event]
				plans = append(plans, scheduler.WorkerPlan[handler.Outcome]{Name: fmt.Sprintf("D%d", d), Crash: spec.crash, Run: func(conn database.Connection) (handler.Outcome, error) {
					return send.handle(conn, event, workerMail{w, conn})
				}})
				continue
			}
			r++
			if send.relay != nil {
				plans = append(plans, relayPlan(fmt.Sprintf("R%d", r), spec.crash))
			}
		}
		if len(plans) > 0 {
			runRound(fmt.Sprintf("round %d", i+1), plans, rd.picks)
		}
	}
	w.provider.ComeBack()
	if send.relay != nil {
		runRound("the last, clean relay run", []scheduler.WorkerPlan[handler.Outcome]{relayPlan("R-last", nil)}, nil)
	}
	return roundsPlayed{w.db.Committed(), w.provider.Inbox(), problems, w.db.TraceLines(), told}
}

// judgeRounds is "" when what the rounds left keeps the property; otherwise what broke it, the rounds and
// what happened.
func judgeRounds(rounds []round, played roundsPlayed) string {
	committed, inbox, problems := played.committed, played.inbox, played.problems
	ids := map[int]bool{}
	for _, ticket := range committed.Tickets {
		ids[ticket.ID] = true
		emails := 0
		for _, email := range inbox {
			if email.TicketID == ticket.ID {
				emails++
			}
		}
		if emails != 1 {
			problems = append(problems, fmt.Sprintf("ticket %s has %d delivered emails, not 1", saidTicket(ticket), emails))
		}
		hasReceipt := false
		for _, receipt := range committed.Receipts {
			hasReceipt = hasReceipt || receipt.TicketID == ticket.ID
		}
		if !hasReceipt {
			problems = append(problems, fmt.Sprintf("ticket %s has no receipt", saidTicket(ticket)))
		}
	}
	for _, email := range inbox {
		if !ids[email.TicketID] {
			problems = append(problems, fmt.Sprintf("an email about ticket #%d, which does not exist: %s", email.TicketID, saidEmail(email)))
		}
	}
	if len(problems) == 0 {
		return ""
	}
	return fmt.Sprintf("%s\n\nThe rounds:\n%s\n\nWhat happened:\n%s", strings.Join(problems, "\n"), tellRounds(rounds), played.trace())
}
