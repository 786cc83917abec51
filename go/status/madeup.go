package status

import (
	"fmt"
	"math/rand"
	"strings"

	"workbook/handler"
	"workbook/schedules"
)

// MadeUpStart is the tickets every made-up schedule starts with, as TypeScript's made-up.ts has them.
var MadeUpStart = []StartTicket{{ID: 1, Status: "open", Version: 1}, {ID: 2, Status: "closed", Version: 1}, {ID: 3, Status: "open", Version: 3}}

// Step is one made-up change before it is made concrete: Behind says how many versions old its decision
// is, Repeat (0: none) sends the Repeat-th earlier change again, a retry or a late copy.
type Step struct {
	Comment bool
	Ticket  int
	Status  Status
	Behind  int
	Text    string
	Repeat  int
	Fault   handler.Fault
}

// RandomSteps draws up to ten steps from r, weighted as TypeScript's made-up.ts weighs them.
func RandomSteps(r *rand.Rand) []Step {
	steps := make([]Step, 1+r.Intn(10))
	for i := range steps {
		s := Step{Comment: r.Intn(2) == 0, Ticket: 1 + r.Intn(3), Status: []Status{"closed", "open"}[r.Intn(2)],
			Behind: []int{0, 0, 1, 2}[r.Intn(4)], Text: []string{"Is there any news?", "Thank you."}[r.Intn(2)],
			Fault: []handler.Fault{handler.NoFault, handler.NoFault, handler.NoFault, handler.NoFault, handler.BeforeCommit, handler.AfterCommit}[r.Intn(6)]}
		if r.Intn(4) == 0 {
			s.Repeat = 1 + r.Intn(12)
		}
		steps[i] = s
	}
	return steps
}

// MadeUpSchedule makes the steps concrete, each status change decided on a version its ticket really had
// (the contract, played along, says which), and expects of it what the contract does.
func MadeUpSchedule(steps []Step) Schedule {
	c := NewContract(MadeUpStart)
	var deliveries []Delivery
	var told []string
	for i, s := range steps {
		var change Change
		switch {
		case s.Repeat > 0 && len(deliveries) > 0:
			change = deliveries[(s.Repeat-1)%len(deliveries)].Change
		case s.Comment:
			change = Change{Kind: "add-comment", ChangeID: fmt.Sprintf("chg-%d", i+1), TicketID: s.Ticket, Text: s.Text}
		default:
			change = Change{Kind: "set-status", ChangeID: fmt.Sprintf("chg-%d", i+1), TicketID: s.Ticket, Status: s.Status, DecidedOn: max(1, c.VersionOf(s.Ticket)-s.Behind)}
		}
		c.Deliver(change, s.Fault)
		deliveries = append(deliveries, Delivery{Change: change, Fault: s.Fault})
		dies := map[handler.Fault]string{handler.BeforeCommit: ", dies before its commit", handler.AfterCommit: ", dies after its commit"}[s.Fault]
		told = append(told, fmt.Sprintf("%d. %s%s", i+1, saidChange(change), dies))
	}
	s := Schedule{Named: schedules.Named{Name: "made-up", File: "go/status/madeup.go"}, Title: "A made-up schedule", Start: MadeUpStart, Deliveries: deliveries,
		Story: "Made up from a seed, to #1 (open, version 1), #2 (closed, version 1) and #3 (open, version 3): " + strings.Join(told, "; ") + ". Expected is what the contract says."}
	s.Expect.Versioned = ExpectedByContract(MadeUpStart, deliveries)
	return s
}

// shrink drops steps while the schedule made from the rest still fails, then makes each step simpler (no
// fault, no repeat, the first ticket), and again, until nothing more goes: the shortest it finds.
func shrink(steps []Step, fails func([]Step) bool) []Step {
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(steps); i++ {
			fewer := append(append([]Step{}, steps[:i]...), steps[i+1:]...)
			if len(fewer) > 0 && fails(fewer) {
				steps, changed, i = fewer, true, i-1
			}
		}
		for i := range steps {
			for _, simpler := range []func(Step) Step{
				func(s Step) Step { s.Fault = handler.NoFault; return s },
				func(s Step) Step { s.Repeat = 0; return s },
				func(s Step) Step { s.Ticket = 1; return s },
			} {
				tried := append([]Step{}, steps...)
				tried[i] = simpler(steps[i])
				if tried[i] != steps[i] && fails(tried) {
					steps, changed = tried, true
				}
			}
		}
	}
	return steps
}

// BrokenMadeUpSchedule plays runs made-up schedules from seed against the rules and returns "" when each
// meets the contract, or else the shortest failing one found, judged as a shipped schedule is, with the
// seed and run to replay it.
func BrokenMadeUpSchedule(rules Rules, seed int64, runs int) string {
	judge := func(steps []Step) string {
		s := MadeUpSchedule(steps)
		return Judge(s, VersionedColumn, Play(s, rules))
	}
	for run := 0; run < runs; run++ {
		steps := RandomSteps(rand.New(rand.NewSource(seed + int64(run))))
		if judge(steps) == "" {
			continue
		}
		short := shrink(steps, func(s []Step) bool { return judge(s) != "" })
		return fmt.Sprintf("A made-up schedule breaks the contract: run %d of seed %d (STATUS_SEED=%d), shrunk from %d changes to %d.\n%s\nReplay it: STATUS_SEED=%d go test ./exercises/07-close-and-reopen -run TestMadeUpSchedules",
			run+1, seed, seed+int64(run), len(steps), len(short), judge(short), seed+int64(run))
	}
	return ""
}
