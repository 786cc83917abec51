package sendbuttonkey

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	. "workbook/client"
)

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

// lifeProblem plays the moves and returns the move that broke a promise and which, or -1 and "".
func lifeProblem(moves []tabMove) (int, string) {
	storage := &MemoryStorage{}
	made := 0
	open := func() Submissions[TicketBody] {
		return New[TicketBody](storage, "support", func() string { made++; return fmt.Sprintf("key-%d", made) })
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

// testMadeUpTabLivesOverAFailingStorage mirrors 04's storage property: 3000 seeded tab lives.
func testMadeUpTabLivesOverAFailingStorage(t *testing.T) {
	const seed = 4004
	for run := 0; run < 3000; run++ {
		moves := randomTabLife(rand.New(rand.NewSource(seed + int64(run))))
		at, problem := lifeProblem(moves)
		if at < 0 {
			continue
		}
		var told []string
		for i, m := range moves[:at+1] {
			told = append(told, fmt.Sprintf("  move %d: %s", i+1, m))
		}
		t.Fatalf("a made-up tab life (seed %d) breaks a promise at move %d: %s\n%s", seed+int64(run), at+1, problem, strings.Join(told, "\n"))
	}
}

// testTheIssuesLifeBreaksNothing: removeItem refused, Finish() twice, then a look: the issue's case,
// as a plain example: nothing finished comes back.
func testTheIssuesLifeBreaksNothing(t *testing.T) {
	life := []tabMove{{do: "send", subject: "Cannot sign in"}, {do: "refuse", methods: []Method{RemoveItem}}, {do: "finish"}, {do: "finish"}, {do: "look"}}
	if at, problem := lifeProblem(life); at >= 0 {
		t.Fatalf("move %d: %s", at+1, problem)
	}
}
