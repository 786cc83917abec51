package endpoint

// The model-based property, the Go twin of harness/endpoint/properties.ts: random sequences
// (sequences.go draws them) played on the routes over the in-memory store and on the model (model.go),
// compared answer by answer and, after every request, in the tables. A failing sequence is shrunk (steps
// dropped, then made simpler) to the shortest that still fails, and told in the schedules' words with the
// seed that replays it.
//
//	problem := modelProblem(code, sizes)   // "" or the story to print
//
// ENDPOINT_SEED picks other sequences and ENDPOINT_RUNS sizes the sample (normal go test runs few, verify
// more): run r of seed s plays seed s+r, and the story names that seed, so ENDPOINT_SEED replays it first.

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"workbook/handler"
)

// sizes are how much the explorations play: random sequences for the crash points, model runs, the seed.
type sizes struct {
	crashSequences, modelRuns int
	seed                      uint64
}

// defaultSeed is TypeScript's (properties.ts): the same number, though not the same sequences.
const defaultSeed = 606

func fromEnvironment(name string, fallback int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n >= 0 {
		return n
	}
	return fallback
}

// loopSizes are normal go test's, unless ENDPOINT_CRASH_RUNS, ENDPOINT_RUNS or ENDPOINT_SEED say more.
func loopSizes() sizes {
	return sizes{
		crashSequences: fromEnvironment("ENDPOINT_CRASH_RUNS", 8),
		modelRuns:      fromEnvironment("ENDPOINT_RUNS", 60),
		seed:           uint64(fromEnvironment("ENDPOINT_SEED", defaultSeed)),
	}
}

// maxModelSteps is the longest random sequence the property plays, as fc.commands' maxCommands there.
const maxModelSteps = 10

func answerProblem(want wanted, got Answer) string {
	text := strconv.Itoa(want.status)
	if want.json != nil {
		body, _ := json.Marshal(want.json)
		text += " " + string(body)
	}
	if want.replays != nil {
		text += " = the saved answer, byte for byte: " + *want.replays
	}
	said := fmt.Sprintf("expected %s (%s), got %s", text, want.why, saidAnswer(&got))
	wantJSON, _ := json.Marshal(want.json)
	switch {
	case got.Status != want.status:
		return said
	case want.json != nil && canonical(got.Body) != string(wantJSON):
		return said
	case want.replays != nil && (got.Body != *want.replays || !got.Replayed):
		return said
	}
	return ""
}

func tablesProblem(m *model, store *MemoryStore) string {
	rows, _ := store.Committed(context.Background())
	tickets := func(list []handler.Ticket) string {
		var said []string
		for _, t := range list {
			said = append(said, fmt.Sprintf("#%d %q", t.ID, t.Subject))
		}
		return orNone(strings.Join(said, ", "))
	}
	if !slices.Equal(rows.Tickets, m.tickets) {
		return fmt.Sprintf("the tickets are %s, where the model has %s", tickets(rows.Tickets), tickets(m.tickets))
	}
	var kept, alive []string
	for _, k := range rows.Keys {
		if m.now.Sub(k.CreatedAt) < m.retention {
			kept = append(kept, fmt.Sprintf("%q (%d)", k.Key, k.Response.Status))
		}
	}
	for key, k := range m.keys {
		if m.kept(k.at) {
			alive = append(alive, fmt.Sprintf("%q (%d)", key, k.status))
		}
	}
	slices.Sort(kept)
	slices.Sort(alive)
	if !slices.Equal(kept, alive) {
		return fmt.Sprintf("the keys still within the retention are %s, where the model keeps %s", orNone(strings.Join(kept, ", ")), orNone(strings.Join(alive, ", ")))
	}
	var held, wanted []string
	for _, r := range rows.Receipts {
		held = append(held, fmt.Sprintf("%s → #%d %q", r.EventID, r.TicketID, r.Subject))
	}
	missing := false
	for _, r := range m.receipts {
		if m.kept(r.at) {
			said := fmt.Sprintf("%s → #%d %q", r.receipt.EventID, r.receipt.TicketID, r.receipt.Subject)
			wanted = append(wanted, said)
			missing = missing || !slices.Contains(held, said)
		}
	}
	if missing {
		slices.Sort(held)
		slices.Sort(wanted)
		return fmt.Sprintf("the receipts are %s, where the model keeps %s", orNone(strings.Join(held, ", ")), strings.Join(wanted, ", "))
	}
	return ""
}

func orNone(text string) string {
	if text == "" {
		return "none"
	}
	return text
}

// againstTheModel plays the sequence on the routes and on the model: "" when they agree at every step.
func againstTheModel(code Code, s Sequence) string {
	m := newModel(s.Remember, s.RetentionHours)
	store := NewMemoryStore()
	clock := scheduleStart
	requests := 0
	for _, step := range s.Steps {
		if step.Do == "wait" {
			m.wait(step.Minutes)
			clock = clock.Add(time.Duration(step.Minutes) * time.Minute)
			continue
		}
		requests++
		want := m.send(step)
		got := send(buildRoutes(code, s, &crashingStore{inner: store, crashAt: -1, stepFails: step.StepFails}, &clock), step)
		if wrong := answerProblem(want, got); wrong != "" {
			return fmt.Sprintf("request %d: %s", requests, wrong)
		}
		m.adopt(got)
		if tables := tablesProblem(m, store); tables != "" {
			return fmt.Sprintf("after request %d, %s", requests, tables)
		}
	}
	return ""
}

// shrink drops steps while the rest still fails, then makes each simpler (no failing insert, no extra
// field, the first key), and again, until nothing more goes: the shortest it finds.
func shrink(s Sequence, fails func(Sequence) bool) Sequence {
	with := func(steps []Call) Sequence { return Sequence{s.Remember, s.RetentionHours, steps} }
	simpler := []func(Call) Call{
		func(c Call) Call { c.StepFails = false; return c },
		func(c Call) Call {
			if c.Route == "tickets" {
				var body struct{ Subject string }
				_ = json.Unmarshal([]byte(c.Body), &body)
				c.Body = ticketBody(body.Subject, "", false)
			}
			return c
		},
		func(c Call) Call {
			if c.Route == "tickets" {
				c.Key = keys[0]
			}
			return c
		},
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(s.Steps); i++ {
			fewer := slices.Delete(slices.Clone(s.Steps), i, i+1)
			if len(fewer) > 0 && fails(with(fewer)) {
				s, changed, i = with(fewer), true, i-1
			}
		}
		for i := range s.Steps {
			for _, simplify := range simpler {
				tried := slices.Clone(s.Steps)
				tried[i] = simplify(s.Steps[i])
				if tried[i] != s.Steps[i] && fails(with(tried)) {
					s, changed = with(tried), true
				}
			}
		}
	}
	return s
}

// modelProblem plays random sequences against the model: "" when every one agrees, else the shortest
// failing one found, told with the seed that replays it.
func modelProblem(code Code, z sizes) string {
	for run := range uint64(z.modelRuns) {
		seed := z.seed + run
		s := randomSequence(rand.New(rand.NewPCG(seed, 0)), maxModelSteps)
		if againstTheModel(code, s) == "" {
			continue
		}
		short := shrink(s, func(s Sequence) bool { return againstTheModel(code, s) != "" })
		return strings.Join([]string{
			fmt.Sprintf("The endpoint does not do what the model of its contract does. The shortest sequence found (seed %d, run %d of seed %d, shrunk from %d steps to %d):",
				seed, run+1, z.seed, len(s.Steps), len(short.Steps)),
			saidSequence(short),
			againstTheModel(code, short),
			fmt.Sprintf("Replay it: ENDPOINT_SEED=%d go test ./exercises/06-ticket-endpoint -run TestExplorations/Random", seed),
		}, "\n")
	}
	return ""
}
