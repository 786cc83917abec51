package endpoint

// Every overlap of two requests, the Go twin of harness/endpoint/overlaps.ts: both are handed to the
// routes at once, each in a goroutine of its own, on the in-memory store, and the harness picks whose next
// store step runs, at every step, until every interleaving has been played: the depth-first walk over the
// choices that go/scheduler's ExploreAll takes for 03's workers (whose runner speaks database.Connection,
// not this Store). A step that waits on a lock can't be picked until the lock is free.
//
//	problem := exploreOverlaps(code, o, 5000)   // "" or the story of the first bad interleaving
//
// What each interleaving must end in: what one of the two orders, one request after the other, ends in,
// where either answer may be a 409 instead (still in progress: the client tries again), and no more tickets
// than that order made. Never a second ticket, a 500, a replay where the order says conflict, or a request
// that waits for ever.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"workbook/handler"
)

// overlap is two requests, after the sequence's steps have been played one at a time.
type overlap struct {
	name   string
	before Sequence
	pair   [2]Call
}

// A request counts as hung when it takes no store step (and does not end) while the process sits idle for
// idleLimit in all: neither running nor waiting for a core (processProgress), so with nothing left to run
// that could bring the step. A loaded machine makes a step slower, never the process idle, so load cannot
// trip it. busyLimit of wall clock bounds a request that keeps the process busy for ever without a step;
// both only bound a hang, neither decides an outcome. TypeScript's rule, with its event loop's idle time.
var (
	idleLimit = 2 * time.Second
	busyLimit = 30 * time.Second
	lookEvery = 50 * time.Millisecond
)

// nextNews is the walk's next news, or false once the request it waits for counts as hung (the rule above).
func nextNews(heard <-chan news) (news, bool) {
	look := time.NewTicker(lookEvery)
	defer look.Stop()
	started := time.Now()
	var idle time.Duration
	var moved time.Duration
	var looked time.Time // the first look starts the count: a step that comes at once never reads /proc
	for {
		select {
		case n := <-heard:
			return n, true
		case <-look.C:
		}
		now, progress := time.Now(), processProgress()
		if !looked.IsZero() {
			idle += max(0, now.Sub(looked)-(progress-moved))
		}
		looked, moved = now, progress
		if idle >= idleLimit || now.Sub(started) >= busyLimit {
			return news{}, false
		}
	}
}

// ownedStore is the store as one of the two requests sees it: its transactions say whose they are.
type ownedStore struct {
	store *MemoryStore
	owner int
}

func (o ownedStore) Transaction(ctx context.Context, work func(tx Tx) error) error {
	return o.store.transaction(o.owner, work)
}

func prepared(code Code, before Sequence, clock *time.Time) *MemoryStore {
	store := NewMemoryStore()
	routes := buildRoutes(code, before, store, clock)
	for _, step := range before.Steps {
		if step.Do == "wait" {
			*clock = clock.Add(time.Duration(step.Minutes) * time.Minute)
		} else {
			send(routes, step)
		}
	}
	return store
}

// news is what a request's goroutine tells the walk: it parked on a step, or it ended.
type news struct {
	owner  int
	step   *MemoryStep
	resume chan struct{}
	ended  *Answer
	failed string
}

type interleaving struct {
	answers   [2]*Answer
	failures  [2]string
	tickets   int
	said      []string
	decisions [][2]int
}

// interleave plays one interleaving: at the i-th choice between runnable requests, the choices[i]-th.
func interleave(code Code, o overlap, base *MemoryStore, clock time.Time, choices []int) interleaving {
	heard := make(chan news)
	var free atomic.Bool // once the walk is over, nothing parks any more
	store := base.Copy(func(step MemoryStep) {
		if free.Load() {
			return
		}
		resume := make(chan struct{})
		heard <- news{owner: step.Owner, step: &step, resume: resume}
		<-resume
	})
	var played interleaving
	parked := map[int]news{}
	ended := [2]bool{}
	// listen waits for the request that is running to park or end.
	listen := func(who int) {
		n, ok := nextNews(heard)
		if !ok {
			ended[who] = true
			played.failures[who] = fmt.Sprintf("request %d hung", who+1)
			return
		}
		if n.step != nil {
			parked[n.owner] = n
			return
		}
		ended[n.owner] = true
		played.answers[n.owner], played.failures[n.owner] = n.ended, n.failed
	}
	for who, c := range o.pair {
		routes := buildRoutes(code, o.before, ownedStore{store, who}, &clock)
		go func() {
			n := news{owner: who}
			defer func() {
				if p := recover(); p != nil {
					n.failed = fmt.Sprint("your route panicked: ", p)
				}
				heard <- n
			}()
			got := send(routes, c)
			n.ended = &got
		}()
		listen(who)
	}
	for {
		var runnable []int
		for who := range 2 {
			if n, ok := parked[who]; ok && !n.step.Blocked() {
				runnable = append(runnable, who)
			}
		}
		if len(runnable) == 0 {
			break
		}
		chosen := runnable[0]
		if len(runnable) > 1 {
			choice := 0
			if len(played.decisions) < len(choices) {
				choice = choices[len(played.decisions)]
			}
			played.decisions = append(played.decisions, [2]int{choice, len(runnable)})
			chosen = runnable[choice]
		}
		n := parked[chosen]
		delete(parked, chosen)
		name := "tx." + n.step.Name + "()"
		if n.step.Name == "commit" {
			name = "commit"
		}
		played.said = append(played.said, fmt.Sprintf("request %d: %s", chosen+1, name))
		close(n.resume)
		listen(chosen)
	}
	// A request left waiting on a lock nothing will release: let it go on, unparked, to its end.
	free.Store(true)
	for who, n := range parked {
		played.said = append(played.said, fmt.Sprintf("request %d waits on a lock nothing will release", who+1))
		played.failures[who] = "waits for ever"
		close(n.resume)
	}
draining:
	for !ended[0] || !ended[1] {
		n, ok := nextNews(heard)
		if !ok {
			break draining // a request that hung is left behind: it only ever waits
		}
		if n.step == nil {
			ended[n.owner] = true
			if played.failures[n.owner] == "" {
				played.answers[n.owner], played.failures[n.owner] = n.ended, n.failed
			}
		}
	}
	for who := range 2 {
		if played.failures[who] != "" {
			played.answers[who] = nil
		}
	}
	played.tickets = len(store.tickets)
	return played
}

// ordered is the two requests one after the other: their answers and the tickets they made.
type ordered struct {
	answers [2]Answer
	tickets int
}

func inOrder(code Code, o overlap, order [2]int) ordered {
	clock := scheduleStart
	store := prepared(code, o.before, &clock)
	routes := buildRoutes(code, o.before, store, &clock)
	var got ordered
	for _, who := range order {
		got.answers[who] = send(routes, o.pair[who])
	}
	got.tickets = len(store.tickets)
	return got
}

func exploreOverlaps(code Code, o overlap, maxRuns int) string {
	orders := []ordered{inOrder(code, o, [2]int{0, 1}), inOrder(code, o, [2]int{1, 0})}
	clock := scheduleStart
	base := prepared(code, o.before, &clock)
	before := len(base.tickets)
	var choices []int
	for range maxRuns {
		played := interleave(code, o, base, clock, choices)
		if problem := judgeOverlap(played, orders, before); problem != "" {
			return tellOverlap(o, played, orders, problem)
		}
		// The next interleaving: the last choice that has another option left takes it.
		d := played.decisions
		for len(d) > 0 && d[len(d)-1][0]+1 >= d[len(d)-1][1] {
			d = d[:len(d)-1]
		}
		if len(d) == 0 {
			return ""
		}
		choices = choices[:0]
		for _, decision := range d {
			choices = append(choices, decision[0])
		}
		choices[len(choices)-1]++
	}
	return ""
}

func judgeOverlap(played interleaving, orders []ordered, before int) string {
	made := played.tickets - before
	for who, got := range played.answers {
		if got == nil {
			return fmt.Sprintf("request %d got no answer: %s", who+1, played.failures[who])
		}
		if got.Panicked != "" {
			return fmt.Sprintf("request %d got no answer: your route panicked: %s", who+1, got.Panicked)
		}
		if got.Status >= 500 {
			return fmt.Sprintf("request %d answered %s", who+1, saidAnswer(got))
		}
	}
	most := 0
	for _, order := range orders {
		fits := made <= order.tickets-before
		for who, got := range played.answers {
			fits = fits && (got.Status == 409 || (got.Status == order.answers[who].Status && got.Body == order.answers[who].Body))
		}
		if fits {
			return ""
		}
		most = max(most, order.tickets-before)
	}
	if made > most {
		return fmt.Sprintf("the two requests made %d tickets, where one after the other they make %d", made, most)
	}
	return "the answers are not what either order gives (a 409 may stand in for either answer)"
}

func tellOverlap(o overlap, played interleaving, orders []ordered, problem string) string {
	steps := append(append([]Call{}, o.before.Steps...), o.pair[0], o.pair[1])
	first := len(o.before.Steps)
	lines := []string{
		fmt.Sprintf("Overlap %q: two requests at once, interleaved at every store step. In this interleaving %s.", o.name, problem),
		"  " + saidSend(steps, first),
		"  " + saidSend(steps, first+1),
		"The interleaving:",
	}
	for i, line := range played.said {
		lines = append(lines, fmt.Sprintf("  %d. %s", i+1, line))
	}
	lines = append(lines, "What each got:")
	for who, got := range played.answers {
		lines = append(lines, fmt.Sprintf("  request %d: %s", who+1, saidAnswer(got)))
	}
	lines = append(lines, "One after the other (1 then 2, and 2 then 1) they get:")
	for _, order := range orders {
		for who := range order.answers {
			lines = append(lines, fmt.Sprintf("  request %d: %s", who+1, saidAnswer(&order.answers[who])))
		}
	}
	if len(o.before.Steps) > 0 {
		lines = append(lines, "Before them:", saidSequence(o.before))
	}
	return strings.Join(lines, "\n")
}

func webhookCall(subject string) Call {
	body, _ := json.Marshal(handler.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: subject})
	return Call{Do: "send", Route: "webhooks", Body: string(body)}
}

func ticketCall(body string) Call { return Call{Do: "send", Route: "tickets", Key: "k-1", Body: body} }

// overlaps are the ones every solution is held to, as TypeScript's: one key or one event, the same request
// or another, on empty tables and after the key (or the receipt) was saved and has expired.
func overlaps() []overlap {
	printer := ticketCall(`{"subject":"Printer on fire"}`)
	more := ticketCall(`{"subject":"Printer on fire","priority":"high"}`)
	wait := Call{Do: "wait", Minutes: 25 * 60}
	late := Sequence{Remember: "everything", RetentionHours: 24, Steps: []Call{printer, wait, webhookCall("Cannot sign in"), wait}}
	empty := Sequence{Remember: "everything", RetentionHours: 24}
	// Without a failing step, the policy changes nothing here: one is enough.
	return []overlap{
		{"one key, the same body (remember: everything)", empty, [2]Call{printer, printer}},
		{"one key, another body (remember: everything)", empty, [2]Call{printer, more}},
		{"one event, two subjects (remember: everything)", empty, [2]Call{webhookCall("Cannot sign in"), webhookCall("Printer on fire")}},
		{"one event, the same subject (remember: everything)", empty, [2]Call{webhookCall("Cannot sign in"), webhookCall("Cannot sign in")}},
		{"one expired key, another body (remember: everything)", late, [2]Call{more, printer}},
		{"one expired receipt, two subjects (remember: everything)", late, [2]Call{webhookCall("Printer on fire"), webhookCall("Cannot sign in")}},
	}
}
