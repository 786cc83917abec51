package outbox

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"workbook/database"
	"workbook/scheduler"
)

// One relay run against a provider that answers call by call, as harness/outbox/relay-faults.ts is
// TypeScript's: every way the sends of three pending rows can go (accepted, down, a reused key refused), and a
// bug at each of them, each compared with what 05's README promises of a relay run. Each pending row is sent
// once, oldest first; a row is marked sent exactly when the provider accepted its email; a refusal
// (ErrProviderDown, ErrKeyReused) leaves its row pending and the relay goes on; any other error is returned,
// with the rows before it marked and the rows after it not sent.
//
//	RelayFaults(t, Relay)                            all 30 runs; the first that breaks the promise fails t
//	JudgeRelayRun(plan, PlayRelayRun(Relay, plan))   one run, played and judged apart

// CallFault is what the provider does with one call: takes it, is down, refuses its key, or the mail client
// has a bug.
type CallFault string

// RelayRun is what one relay run did: the keys it sent, the keys it marked sent, and how it ended.
type RelayRun struct {
	Sent   []string `json:"sent"`
	Marked []string `json:"marked"`
	Ended  string   `json:"ended"`
}

var faultRows = []database.OutboxDraft{
	{Key: "ticket-confirmation/acme/1", Tenant: "acme", TicketID: 1, To: "acme", Subject: "Question 1"},
	{Key: "ticket-confirmation/acme/2", Tenant: "acme", TicketID: 2, To: "acme", Subject: "Question 2"},
	{Key: "ticket-confirmation/acme/3", Tenant: "acme", TicketID: 3, To: "acme", Subject: "Question 3"},
}

var errBug = errors.New("a bug in the mail client")

// RelayFaultPlans is every plan of the provider's answers: 27 of accepted, down and refused, then a bug at
// each row, in TypeScript's order.
func RelayFaultPlans() [][]CallFault {
	plans := [][]CallFault{{}}
	for range faultRows {
		var longer [][]CallFault
		for _, plan := range plans {
			for _, answer := range []CallFault{"accepted", "down", "refused"} {
				longer = append(longer, append(slices.Clone(plan), answer))
			}
		}
		plans = longer
	}
	for i := range faultRows {
		plan := make([]CallFault, len(faultRows))
		for j := range plan {
			plan[j] = "accepted"
		}
		plan[i] = "bug"
		plans = append(plans, plan)
	}
	return plans
}

// faultyMail answers each call as the plan says, and remembers the keys it was sent.
type faultyMail struct {
	plan []CallFault
	sent []string
}

func (m *faultyMail) Send(email Email) (Accepted, error) {
	fault := CallFault("accepted")
	if len(m.sent) < len(m.plan) {
		fault = m.plan[len(m.sent)]
	}
	m.sent = append(m.sent, email.Key)
	switch fault {
	case "down":
		return Accepted{}, fmt.Errorf("%w: %s was not delivered", ErrProviderDown, email.Key)
	case "refused":
		return Accepted{}, fmt.Errorf("%w: %s already sent another email", ErrKeyReused, email.Key)
	case "bug":
		return Accepted{}, errBug
	}
	return Accepted{MessageID: fmt.Sprintf("msg-%d", len(m.sent))}, nil
}

// PlayRelayRun plays one run of relay under the plan, on three pending rows of a fresh database.
func PlayRelayRun(relay func(database.Connection, Mail) error, plan []CallFault) RelayRun {
	db := database.New()
	seed := db.Connect("seed", nil)
	for _, row := range faultRows {
		if _, err := seed.SaveOutbox(row); err != nil {
			panic(err)
		}
	}
	mail := &faultyMail{plan: plan}
	run := RelayRun{Sent: []string{}, Marked: []string{}, Ended: "finishes"}
	conn := db.Connect("R", nil)
	if err := relay(conn, mail); errors.Is(err, errBug) {
		run.Ended = "throws the bug"
	} else if err != nil {
		run.Ended = "throws " + errorName(err)
	}
	// As the scheduler's end of a worker reads it (scheduler/left_open.go): the call came back inside a
	// transaction.
	if conn.InTransaction() {
		run.Ended += leftOpenWords
	}
	run.Sent = append(run.Sent, mail.sent...)
	for _, row := range db.Committed().Outbox {
		if row.State == database.Sent {
			run.Marked = append(run.Marked, row.Key)
		}
	}
	return run
}

// expectedRun is what the README's relay does under the plan.
func expectedRun(plan []CallFault) RelayRun {
	run := RelayRun{Sent: []string{}, Marked: []string{}, Ended: "finishes"}
	for i, row := range faultRows {
		run.Sent = append(run.Sent, row.Key)
		if plan[i] == "accepted" {
			run.Marked = append(run.Marked, row.Key)
		}
		if plan[i] == "bug" {
			run.Ended = "throws the bug"
			break
		}
	}
	return run
}

func saidKeys(keys []string) string {
	if len(keys) == 0 {
		return "none"
	}
	said := make([]string, len(keys))
	for i, key := range keys {
		said[i] = "#" + key[strings.LastIndex(key, "/")+1:]
	}
	return strings.Join(said, ", ")
}

func saidPlan(plan []CallFault) string {
	said := make([]string, len(faultRows))
	for i, row := range faultRows {
		answer := string(plan[i])
		if answer == "refused" {
			answer = "refused (a reused key)"
		}
		said[i] = fmt.Sprintf("#%d: %s", row.TicketID, answer)
	}
	return strings.Join(said, ", ")
}

// leftOpenWords is how a run's end is said when the relay came back with its transaction still open.
const leftOpenWords = ", with its transaction still open"

func whatItMeans(plan []CallFault, ran RelayRun) string {
	if strings.HasSuffix(ran.Ended, leftOpenWords) {
		return "your relay came back with its transaction still open. " + scheduler.LeftOpenMeans
	}
	for i, row := range faultRows {
		if (plan[i] == "down" || plan[i] == "refused") && slices.Contains(ran.Marked, row.Key) {
			return "a row was marked sent though the provider did not take its email: that email is lost for good."
		}
	}
	if slices.Contains(plan, "bug") && ran.Ended == "finishes" {
		return "your relay caught an error that is not the provider refusing: it hides a bug, or the database gone."
	}
	if len(ran.Sent) < len(expectedRun(plan).Sent) {
		return "your relay stopped at a refusal: one refused row holds back every row after it, run after run."
	}
	return "a row accepted by the provider must be marked sent, once, and each pending row sent once."
}

// JudgeRelayRun says what went another way in one run under the plan, with what the provider answered, or "".
func JudgeRelayRun(plan []CallFault, ran RelayRun) string {
	want := expectedRun(plan)
	if slices.Equal(ran.Sent, want.Sent) && slices.Equal(ran.Marked, want.Marked) && ran.Ended == want.Ended {
		return ""
	}
	return strings.Join([]string{
		fmt.Sprintf("One relay run over three pending rows, the provider answering call by call: %s.", saidPlan(plan)),
		fmt.Sprintf("expected: sends %s; marks sent %s; the relay %s.", saidKeys(want.Sent), saidKeys(want.Marked), want.Ended),
		fmt.Sprintf("your relay: sends %s; marks sent %s; the relay %s.", saidKeys(ran.Sent), saidKeys(ran.Marked), ran.Ended),
		"",
		"What this usually means: " + whatItMeans(plan, ran),
	}, "\n")
}

// RelayFaults plays every plan of RelayFaultPlans with relay, and fails t with the first run that breaks the
// README's promise.
func RelayFaults(t *testing.T, relay func(database.Connection, Mail) error) {
	t.Helper()
	for _, plan := range RelayFaultPlans() {
		if problem := JudgeRelayRun(plan, PlayRelayRun(relay, plan)); problem != "" {
			t.Fatal(problem)
		}
	}
}
