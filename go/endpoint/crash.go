package endpoint

// Every crash point of every request, the Go twin of harness/endpoint/crash-points.ts: the request is
// stopped at each step it takes against the store, then the client retries it (same key, same body), and
// what the lesson promises is checked.
//
//	problem := exploreCrashPoints(code, sequence, NewMemoryStore(), inMemory, everyPoint)   // "" or the story
//
// The steps: the start of each transaction (after the one before it committed), each statement, each
// commit, and the end (the route made its answer, the connection drops before it is sent). A crash at a
// step is one the route cannot tell from a real one: that store call fails with ErrWorkerDied, the open
// transaction rolls back, every later call fails too, and whatever the route answers is lost. The retry
// goes to routes built again, as another worker would serve it. The promises, request by request, against
// the same request played without a crash: a crash before any commit leaves the tables as they were; the
// retry gets the answer the uncrashed request got (a first creation, or that answer replayed); the crash and
// the retry together make at most the one ticket the request alone makes. Works on any ExploredStore: in
// memory every point is cheap, PostgreSQL gets a sample (postgres_explore_test.go).

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"workbook/handler"
)

// ExploredStore is a Store whose committed rows can be read back.
type ExploredStore interface {
	Store
	Committed(ctx context.Context) (Rows, error)
}

// storeStep is one step a request takes against the store: "begin", "statement" (Name is the method),
// "commit" or "end"; Writes says whether it (or, for a commit, its transaction) saves something.
type storeStep struct {
	Kind        string
	Transaction int
	Name        string
	Writes      bool
}

var writing = map[string]bool{"SaveKey": true, "ForgetKey": true, "CreateTicket": true, "SaveReceipt": true, "ForgetReceipt": true}

// crashingStore is the store as one request sees it: every step recorded, a crash at step crashAt
// (counting from 0, -1: none), and the ticket's insert failing when stepFails.
type crashingStore struct {
	inner        Store
	crashAt      int
	stepFails    bool
	steps        []storeStep
	crashed      bool
	transactions int
}

func (c *crashingStore) point(step storeStep) error {
	if c.crashed {
		return ErrWorkerDied
	}
	c.steps = append(c.steps, step)
	if len(c.steps)-1 == c.crashAt {
		c.crashed = true
		return ErrWorkerDied
	}
	return nil
}

func (c *crashingStore) Transaction(ctx context.Context, work func(tx Tx) error) error {
	c.transactions++
	number := c.transactions
	if err := c.point(storeStep{Kind: "begin", Transaction: number, Name: "begin"}); err != nil {
		return err
	}
	return c.inner.Transaction(ctx, func(tx Tx) error {
		stepped := &crashingTx{store: c, inner: tx, transaction: number}
		if err := work(stepped); err != nil {
			return err
		}
		return c.point(storeStep{Kind: "commit", Transaction: number, Name: "commit", Writes: stepped.writes})
	})
}

// crashingTx puts a point before every statement of one transaction.
type crashingTx struct {
	store       *crashingStore
	inner       Tx
	transaction int
	writes      bool
}

func (t *crashingTx) before(name string) error {
	t.writes = t.writes || writing[name]
	return t.store.point(storeStep{Kind: "statement", Transaction: t.transaction, Name: name, Writes: writing[name]})
}

func (t *crashingTx) LockKey(client, key string) (bool, error) {
	if err := t.before("LockKey"); err != nil {
		return false, err
	}
	return t.inner.LockKey(client, key)
}

func (t *crashingTx) FindKey(client, key string) (*KeyRecord, error) {
	if err := t.before("FindKey"); err != nil {
		return nil, err
	}
	return t.inner.FindKey(client, key)
}

func (t *crashingTx) SaveKey(r KeyRecord) error {
	if err := t.before("SaveKey"); err != nil {
		return err
	}
	return t.inner.SaveKey(r)
}

func (t *crashingTx) ForgetKey(client, key string) error {
	if err := t.before("ForgetKey"); err != nil {
		return err
	}
	return t.inner.ForgetKey(client, key)
}

func (t *crashingTx) CreateTicket(tenant, subject string) (int, error) {
	if err := t.before("CreateTicket"); err != nil {
		return 0, err
	}
	if t.store.stepFails {
		return 0, ErrStepFailed
	}
	return t.inner.CreateTicket(tenant, subject)
}

func (t *crashingTx) FindReceipt(event handler.Webhook) (*StoredReceipt, error) {
	if err := t.before("FindReceipt"); err != nil {
		return nil, err
	}
	return t.inner.FindReceipt(event)
}

func (t *crashingTx) SaveReceipt(r StoredReceipt) error {
	if err := t.before("SaveReceipt"); err != nil {
		return err
	}
	return t.inner.SaveReceipt(r)
}

func (t *crashingTx) ForgetReceipt(event handler.Webhook) error {
	if err := t.before("ForgetReceipt"); err != nil {
		return err
	}
	return t.inner.ForgetReceipt(event)
}

// playedOne is one request's play: its answer (nil: lost to the crash) and the steps it took.
type playedOne struct {
	answer *Answer
	steps  []storeStep
}

func playOne(code Code, sequence Sequence, store Store, clock *time.Time, c Call, crashAt int) playedOne {
	crashing := &crashingStore{inner: store, crashAt: crashAt, stepFails: c.StepFails}
	got := send(buildRoutes(code, sequence, crashing, clock), c)
	if !crashing.crashed {
		crashing.steps = append(crashing.steps, storeStep{Kind: "end", Name: "end"})
		crashing.crashed = len(crashing.steps)-1 == crashAt
	}
	if crashing.crashed {
		return playedOne{steps: crashing.steps}
	}
	return playedOne{answer: &got, steps: crashing.steps}
}

// saidPoint is where a step is, in words: "between your two commits (just before transaction 2 commits)".
func saidPoint(steps []storeStep, at int) string {
	step := steps[at]
	var before []string
	after := 0
	for i, s := range steps {
		if s.Kind == "commit" && s.Writes {
			if i < at {
				before = append(before, fmt.Sprint(s.Transaction))
			} else {
				after++
			}
		}
	}
	between := func(where string) string {
		if len(before) > 0 && after > 0 {
			return "between your two commits (" + where + ")"
		}
		return where
	}
	switch {
	case step.Kind == "end":
		return "after your last commit, before the answer reached the client"
	case step.Kind == "commit":
		return between(fmt.Sprintf("just before transaction %d commits", step.Transaction))
	case step.Kind == "begin" && step.Transaction > 1:
		return between(fmt.Sprintf("after transaction %d began or committed, before transaction %d", step.Transaction-1, step.Transaction))
	case step.Kind == "begin":
		return "before your first transaction"
	}
	committed := ""
	if len(before) > 0 {
		committed = ", after transaction " + strings.Join(before, " and ") + " committed"
	}
	return between(fmt.Sprintf("at tx.%s() in transaction %d%s", step.Name, step.Transaction, committed))
}

// Points says which crash points to try at a request: all of them in memory, a sample on PostgreSQL.
type Points func(count, request int) []int

func everyPoint(count, _ int) []int {
	points := make([]int, count)
	for i := range points {
		points[i] = i
	}
	return points
}

// inMemory is a fresh in-memory store holding the committed rows of another.
func inMemory(from ExploredStore) ExploredStore { return from.(*MemoryStore).Copy(nil) }

// crashJudged is one crash and its retry, with everything the promises are judged on.
type crashJudged struct {
	reference                         playedOne
	referenceAfter                    Rows
	route                             RouteName
	at                                int
	before, afterCrash, afterTheRetry Rows
	retry                             playedOne
}

// exploreCrashPoints plays each request of the sequence crashed at each of its points, then retried, on a
// fresh(rows) store holding what the requests before it committed; "" when every promise is kept.
func exploreCrashPoints(code Code, sequence Sequence, start ExploredStore, fresh func(ExploredStore) ExploredStore, points Points) (string, error) {
	problem := ""
	err := eachCrash(code, sequence, start, fresh, points, func(i int, judged crashJudged) bool {
		problem = tellCrash(sequence, i, judged)
		return problem == ""
	})
	return problem, err
}

// eachCrash plays every crash and its retry, and hands each, with the step of the sequence it crashed, to
// visit, until visit says stop (false).
func eachCrash(code Code, sequence Sequence, start ExploredStore, fresh func(ExploredStore) ExploredStore, points Points, visit func(step int, judged crashJudged) bool) error {
	ctx := context.Background()
	clock := scheduleStart
	store, request := start, 0
	for i, step := range sequence.Steps {
		if step.Do == "wait" {
			clock = clock.Add(time.Duration(step.Minutes) * time.Minute)
			continue
		}
		request++
		before, err := store.Committed(ctx)
		if err != nil {
			return err
		}
		alone := fresh(store)
		reference := playOne(code, sequence, alone, &clock, step, -1)
		referenceAfter, err := alone.Committed(ctx)
		if err != nil {
			return err
		}
		for _, at := range points(len(reference.steps), request) {
			crashed := fresh(store)
			playOne(code, sequence, crashed, &clock, step, at)
			afterCrash, err := crashed.Committed(ctx)
			if err != nil {
				return err
			}
			retry := playOne(code, sequence, crashed, &clock, step, -1)
			afterTheRetry, err := crashed.Committed(ctx)
			if err != nil {
				return err
			}
			if !visit(i, crashJudged{reference, referenceAfter, step.Route, at, before, afterCrash, afterTheRetry, retry}) {
				return nil
			}
		}
		// The request played alone is the next request's start.
		store = alone
	}
	return nil
}

// tellCrash is the story of one crash of the sequence's step i and its retry, or "" when it kept every promise.
func tellCrash(sequence Sequence, i int, judged crashJudged) string {
	problem := judgeCrash(judged)
	if problem == "" {
		return ""
	}
	again := "the sender delivered it again"
	if judged.route == "tickets" {
		again = "the client sent it again (same key, same body)"
	}
	return fmt.Sprintf("Crash point %d of %d of %s: the worker was stopped %s, then %s.\n%s\n\nThe sequence:\n%s",
		judged.at+1, len(judged.reference.steps), saidSend(sequence.Steps, i), saidPoint(judged.reference.steps, judged.at), again, problem, saidSequence(sequence))
}

func saidRows(r Rows) string {
	var tickets, keys []string
	for _, t := range r.Tickets {
		tickets = append(tickets, fmt.Sprintf("#%d", t.ID))
	}
	for _, k := range r.Keys {
		keys = append(keys, fmt.Sprintf("%q", k.Key))
	}
	none := func(list []string) string {
		if len(list) == 0 {
			return "none"
		}
		return strings.Join(list, ", ")
	}
	return fmt.Sprintf("tickets %s; keys %s; receipts %d", none(tickets), none(keys), len(r.Receipts))
}

func sameRows(a, b Rows) bool {
	shape := func(r Rows) string {
		var keys []any
		for _, k := range r.Keys {
			keys = append(keys, []any{k.Key, k.Response.Status, k.Response.Body})
		}
		var receipts []any
		for _, receipt := range r.Receipts {
			receipts = append(receipts, receipt.Receipt)
		}
		text, _ := json.Marshal([]any{r.Tickets, keys, receipts})
		return string(text)
	}
	return shape(a) == shape(b)
}

// firstAnswerAgain: the retry's answer is the first answer, the same or (a webhook made the first time)
// its replay.
func firstAnswerAgain(route RouteName, first, retry Answer) bool {
	if retry.Status == first.Status && retry.Body == first.Body {
		return true
	}
	if route != "webhooks" || first.Status != 201 || retry.Status != 200 {
		return false
	}
	var made, again struct {
		Kind     string `json:"kind"`
		TicketID *int   `json:"ticketId"`
	}
	if json.Unmarshal([]byte(first.Body), &made) != nil || json.Unmarshal([]byte(retry.Body), &again) != nil {
		return false
	}
	return again.Kind == "replayed" && made.TicketID != nil && again.TicketID != nil && *again.TicketID == *made.TicketID
}

// judgeCrash is the first promise one crash and its retry broke, or "".
func judgeCrash(j crashJudged) string {
	point := saidPoint(j.reference.steps, j.at)
	committed := false
	for _, step := range j.reference.steps[:j.at] {
		committed = committed || (step.Kind == "commit" && step.Writes)
	}
	if !committed && !sameRows(j.before, j.afterCrash) {
		return fmt.Sprintf("A crash before any commit must leave the tables as they were, but they changed.\n  before:      %s\n  after crash: %s", saidRows(j.before), saidRows(j.afterCrash))
	}
	made := len(j.afterTheRetry.Tickets) - len(j.before.Tickets)
	alone := len(j.referenceAfter.Tickets) - len(j.before.Tickets)
	tables := "\n  the retry got:         " + saidAnswer(j.retry.answer) + "\n  the request alone got: " + saidAnswer(j.reference.answer) + "\n  tables after the retry: " + saidRows(j.afterTheRetry)
	if made > alone {
		last := j.afterTheRetry.Tickets[len(j.afterTheRetry.Tickets)-1].ID
		return fmt.Sprintf("After a crash %s, the retry made ticket #%d: the crash and its retry made %d tickets where the request alone makes %d.%s", point, last, made, alone, tables)
	}
	if j.reference.answer == nil {
		return ""
	}
	if j.reference.answer.Panicked != "" {
		return fmt.Sprintf("Played alone, with no crash, the request got no answer: your route panicked: %s", j.reference.answer.Panicked)
	}
	if j.retry.answer == nil {
		return fmt.Sprintf("After a crash %s, the retry got no answer", point)
	}
	if j.retry.answer.Panicked != "" {
		return fmt.Sprintf("After a crash %s, the retry got no answer: your route panicked: %s", point, j.retry.answer.Panicked)
	}
	if !firstAnswerAgain(j.route, *j.reference.answer, *j.retry.answer) {
		return fmt.Sprintf("After a crash %s, the retry must get the first answer (made now, or replayed), but it got another.%s", point, tables)
	}
	if made < alone {
		return fmt.Sprintf("After a crash %s, the retry answered %s but no ticket was made: the tables hold %s", point, saidAnswer(j.retry.answer), saidRows(j.afterTheRetry))
	}
	return ""
}
