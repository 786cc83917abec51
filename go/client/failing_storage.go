package client

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Exercise 04's made-up tab lives over a storage that refuses at random, as harness/client/failing-storage.ts
// has them: sends, answers, looks and reloads, with storage calls failing and healing between them. Whatever
// the storage does, nothing is thrown, a retry continues the pending submission, a key belongs to one body,
// and a finished submission never comes back on the page that finished it.
//
//	client.MadeUpTabLivesOverAFailingStorage(t, New[client.TicketBody])  // seeded lives; a failure names its seed
//	client.TheIssuesLifeBreaksNothing(t, New[client.TicketBody])         // the issue's life, as an example
//
// A go test plays TabLives lives (as many as the TypeScript loop's fast-check runs); TAB_LIFE_RUNS says
// more, as npm run verify does.

// NewForm opens a form's submissions over storage: the learner's New, for one body type.
type NewForm func(storage KeyStore, form string, newKey func() string) Submissions[TicketBody]

// TabLives is how many seeded lives a go test plays, unless TAB_LIFE_RUNS says otherwise.
const TabLives = 300

// tabLifeSeed is the first life's seed; life n plays seed tabLifeSeed+n.
const tabLifeSeed = 4004

// A move in a made-up tab life, as harness/client/failing-storage.ts has them.
type tabMove struct {
	do      string // send, finish, look, reload, refuse, heal
	subject string
	methods []Method
}

func (m tabMove) String() string {
	switch m.do {
	case "send":
		return fmt.Sprintf("Send %q: Begin()", m.subject)
	case "finish":
		return "a definite answer: Finish()"
	case "look":
		return "the form looks: Pending()"
	case "reload":
		return "the tab reloads: New() again over the same storage"
	case "refuse":
		names := make([]string, len(m.methods))
		for i, method := range m.methods {
			names[i] = string(method)
		}
		return "storage starts refusing " + strings.Join(names, ", ")
	}
	return "storage works again"
}

func randomTabLife(r *rand.Rand) []tabMove {
	moves := make([]tabMove, r.Intn(11))
	weighted := []string{"send", "send", "send", "finish", "finish", "finish", "look", "look", "reload", "refuse", "refuse", "refuse", "heal"}
	for i := range moves {
		m := tabMove{do: weighted[r.Intn(len(weighted))], subject: []string{"Cannot sign in", "Charged twice"}[r.Intn(2)]}
		for _, method := range []Method{GetItem, SetItem, RemoveItem} {
			if r.Intn(2) == 0 {
				m.methods = append(m.methods, method)
			}
		}
		if len(m.methods) == 0 {
			m.methods = []Method{RemoveItem}
		}
		moves[i] = m
	}
	return moves
}

// lifeProblem plays the moves on the form newForm opens and returns the move that broke a promise and
// which, or -1 and "".
func lifeProblem(newForm NewForm, moves []tabMove) (int, string) {
	storage := &MemoryStorage{}
	made := 0
	open := func() Submissions[TicketBody] {
		return newForm(storage, "support", func() string { made++; return fmt.Sprintf("key-%d", made) })
	}
	form := open()
	var knows *Pending[TicketBody]
	finished := map[string]bool{}
	bodies := map[string]TicketBody{}
	for at, m := range moves {
		var got *Pending[TicketBody]
		switch m.do {
		case "refuse":
			storage.Fail(m.methods...)
		case "heal":
			storage.Heal()
		case "reload":
			form, knows, finished = open(), nil, map[string]bool{}
		case "finish":
			form.Finish()
			if knows != nil {
				finished[knows.Key] = true
			}
			knows = nil
		case "send":
			p := form.Begin(TicketBody{Subject: m.subject})
			got = &p
		case "look":
			got = form.Pending()
		}
		if got == nil {
			continue
		}
		switch {
		case finished[got.Key]:
			return at, fmt.Sprintf("%+v came back, though this page finished it: a finished submission is never offered again from the page that finished it", *got)
		case m.do == "send" && knows != nil && knows.Key != got.Key:
			return at, fmt.Sprintf("Send again while %+v was pending started %+v: a retry continues the pending submission", *knows, *got)
		}
		if first, ok := bodies[got.Key]; ok && first != got.Body {
			return at, fmt.Sprintf("key %q carried %+v and now %+v: a key belongs to one body", got.Key, first, got.Body)
		}
		bodies[got.Key] = got.Body
		knows = got
	}
	return -1, ""
}

// MadeUpTabLivesOverAFailingStorage plays the seeded lives and stops at the first that breaks a promise,
// telling its moves up to the one that broke it.
func MadeUpTabLivesOverAFailingStorage(t *testing.T, newForm NewForm) {
	t.Helper()
	runs := TabLives
	if n, err := strconv.Atoi(os.Getenv("TAB_LIFE_RUNS")); err == nil && n > 0 {
		runs = n
	}
	for run := 0; run < runs; run++ {
		seed := int64(tabLifeSeed + run)
		moves := randomTabLife(rand.New(rand.NewSource(seed)))
		at, problem := lifeProblem(newForm, moves)
		if at < 0 {
			continue
		}
		var told []string
		for i, m := range moves[:at+1] {
			told = append(told, fmt.Sprintf("  move %d: %s", i+1, m))
		}
		t.Fatalf("a made-up tab life (seed %d) breaks a promise at move %d: %s\n%s", seed, at+1, problem, strings.Join(told, "\n"))
	}
}

// TheIssuesLifeBreaksNothing: removeItem refused, Finish() twice, then a look: the issue's case, as a plain
// example: nothing finished comes back.
func TheIssuesLifeBreaksNothing(t *testing.T, newForm NewForm) {
	t.Helper()
	life := []tabMove{{do: "send", subject: "Cannot sign in"}, {do: "refuse", methods: []Method{RemoveItem}}, {do: "finish"}, {do: "finish"}, {do: "look"}}
	if at, problem := lifeProblem(newForm, life); at >= 0 {
		t.Fatalf("move %d: %s", at+1, problem)
	}
}
