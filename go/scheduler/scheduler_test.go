package scheduler_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
)

var evt42 = handler.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}

// insertInTransaction saves a ticket and the receipt of evt-42 in one transaction.
func insertInTransaction(conn database.Connection) (int, error) {
	if err := conn.Begin(); err != nil {
		return 0, err
	}
	id, err := conn.SaveTicket("acme", "Cannot sign in")
	if err != nil {
		return 0, err
	}
	if err := conn.SaveReceipt(handler.Receipt{Event: evt42, TicketID: id}); err != nil {
		return 0, errors.Join(err, conn.Rollback())
	}
	return id, conn.Commit()
}

func run(t *testing.T, plans []scheduler.WorkerPlan[int], pick scheduler.Pick) (scheduler.Run[int], *database.Database) {
	t.Helper()
	db := database.New()
	r, err := scheduler.RunWorkers(db, plans, pick, scheduler.Options[int]{})
	if err != nil {
		t.Fatal(err)
	}
	return r, db
}

func TestTheDatabaseAsTwoWorkersSeeIt(t *testing.T) {
	tests := []struct {
		name    string
		plans   []scheduler.WorkerPlan[int]
		pick    []string
		endings map[string]string // worker → "answered 1", "failed unique-violation", "crashed"
		tickets int
		trace   string // a sentence the trace must hold
	}{
		{
			name:    "a second insert of the same key waits for the first transaction, then fails",
			plans:   []scheduler.WorkerPlan[int]{{Name: "A", Run: insertInTransaction}, {Name: "B", Run: insertInTransaction}},
			pick:    []string{"A", "A", "B", "B", "A", "B"},
			endings: map[string]string{"A": "answered 1", "B": "failed unique-violation"},
			tickets: 1,
			trace:   "B waits for it to end",
		},
		{
			name:    "it goes ahead when the first one rolls back, with the next number of the sequence",
			plans:   []scheduler.WorkerPlan[int]{{Name: "A", Run: insertInTransaction, Crash: &scheduler.CrashPoint{When: "after", Operation: "save-receipt"}}, {Name: "B", Run: insertInTransaction}},
			pick:    []string{"A", "A", "B", "B", "A", "B", "B"},
			endings: map[string]string{"A": "crashed", "B": "answered 2"},
			tickets: 1,
			trace:   "A crashes. Its transaction rolls back: ticket #1 and receipt acme/helpdesk/evt-42 → #1 are gone.",
		},
		{
			name:    "a before-commit crash strikes before the write that would last",
			plans:   []scheduler.WorkerPlan[int]{{Name: "A", Run: insertInTransaction, Crash: &scheduler.CrashPoint{When: "before-commit"}}},
			endings: map[string]string{"A": "crashed"},
			tickets: 0,
			trace:   "A crashes.",
		},
		{
			name:    "a worker that never reaches its crash point dies before it answers",
			plans:   []scheduler.WorkerPlan[int]{{Name: "A", Run: insertInTransaction, Crash: &scheduler.CrashPoint{When: "after", Operation: "mark-sent"}}},
			endings: map[string]string{"A": "crashed"},
			tickets: 1,
			trace:   "A crashes before it answers.",
		},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			r, db := run(t, test.plans, scheduler.InTurn(test.pick...))
			for name, want := range test.endings {
				ending := r.Endings[name]
				got := string(ending.Kind)
				var dbErr *database.Error
				switch {
				case ending.Kind == scheduler.Answered:
					got += " " + string(rune('0'+ending.Value))
				case errors.As(ending.Err, &dbErr):
					got += " " + string(dbErr.Code)
				}
				if got != want {
					t.Errorf("%s ended %q, want %q", name, got, want)
				}
			}
			if n := len(db.Committed().Tickets); n != test.tickets {
				t.Errorf("%d tickets committed, want %d", n, test.tickets)
			}
			if trace := database.TellTrace(db.Trace); !strings.Contains(trace, test.trace) {
				t.Errorf("the trace does not say %q:\n%s", test.trace, trace)
			}
		})
	}
}

func TestAnAbortedTransactionRefusesEverythingUntilRollback(t *testing.T) {
	db := database.New()
	conn := db.Connect("A", nil)
	if _, err := conn.SaveTicket("acme", "x"); err != nil {
		t.Fatal(err)
	}
	if err := conn.SaveReceipt(handler.Receipt{Event: evt42, TicketID: 1}); err != nil {
		t.Fatal(err)
	}
	_ = conn.Begin()
	if err := conn.SaveReceipt(handler.Receipt{Event: evt42, TicketID: 1}); err == nil {
		t.Fatal("a second receipt for evt-42 was saved")
	}
	if _, err := conn.FindTicket(1); !errors.Is(err, database.ErrTransactionAborted) {
		t.Errorf("after an error in a transaction: %v, want %v", err, database.ErrTransactionAborted)
	}
	if err := conn.Rollback(); err != nil {
		t.Fatal(err)
	}
	if ticket, err := conn.FindTicket(1); err != nil || ticket == nil {
		t.Errorf("after rollback: %v, %v", ticket, err)
	}
}

func TestExploreAllVisitsEveryInterleaving(t *testing.T) {
	twoSteps := func(conn database.Connection) (int, error) {
		if _, err := conn.FindTicket(1); err != nil {
			return 0, err
		}
		_, err := conn.FindTicket(2)
		return 0, err
	}
	setUp := func() (*database.Database, []scheduler.WorkerPlan[int], scheduler.Options[int]) {
		return database.New(), []scheduler.WorkerPlan[int]{{Name: "A", Run: twoSteps}, {Name: "B", Run: twoSteps}}, scheduler.Options[int]{}
	}
	orders := map[string]bool{}
	explored, err := scheduler.ExploreAll(setUp, func(r scheduler.Run[int]) string {
		orders[strings.Join(r.Steps, "")] = true
		return ""
	}, scheduler.ExploreOptions{NoPrune: true})
	if err != nil {
		t.Fatal(err)
	}
	// Two operations each: 4!/(2!·2!) = 6 orders.
	if explored.Complete != 6 || len(orders) != 6 {
		t.Errorf("%d complete runs, %d distinct orders %v; want 6", explored.Complete, len(orders), orders)
	}
}

// Two transactions that take two keys in opposite orders: the wait that would close the cycle fails with
// a deadlock, and the other transaction goes on.
func TestAWaitThatClosesACycleIsADeadlock(t *testing.T) {
	evt43 := handler.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-43", Subject: "Cannot export report"}
	inOrder := func(first, second handler.Webhook) func(database.Connection) (int, error) {
		return func(conn database.Connection) (int, error) {
			if err := conn.Begin(); err != nil {
				return 0, err
			}
			for _, event := range []handler.Webhook{first, second} {
				if err := conn.SaveReceipt(handler.Receipt{Event: event, TicketID: 1}); err != nil {
					return 0, errors.Join(err, conn.Rollback())
				}
			}
			return 1, conn.Commit()
		}
	}
	r, db := run(t, []scheduler.WorkerPlan[int]{{Name: "A", Run: inOrder(evt42, evt43)}, {Name: "B", Run: inOrder(evt43, evt42)}},
		scheduler.InTurn("A", "B", "A", "B"))
	var dbErr *database.Error
	if b := r.Endings["B"]; b.Kind != scheduler.Failed || !errors.As(b.Err, &dbErr) || dbErr.Code != database.Deadlock {
		t.Errorf("B ended %+v, want a deadlock", b)
	}
	if a := r.Endings["A"]; a.Kind != scheduler.Answered {
		t.Errorf("A ended %+v, want it to commit once B rolled back", a)
	}
	if n := len(db.Committed().Receipts); n != 2 {
		t.Errorf("%d receipts committed, want A's two", n)
	}
	if trace := database.TellTrace(db.Trace); !strings.Contains(trace, "deadlock detected") {
		t.Errorf("the trace does not say deadlock detected:\n%s", trace)
	}
}

// forgets opens a transaction, saves a ticket and returns without ending it.
func forgets(conn database.Connection) (int, error) {
	if err := conn.Begin(); err != nil {
		return 0, err
	}
	return conn.SaveTicket("acme", "Cannot sign in")
}

func TestAWorkerThatComesBackInsideItsTransactionIsLeftOpen(t *testing.T) {
	throws := func(conn database.Connection) (int, error) {
		if _, err := forgets(conn); err != nil {
			return 0, err
		}
		return 0, errors.New("no rollback on the way out")
	}
	tests := []struct {
		name  string
		plans []scheduler.WorkerPlan[int]
		want  string // the story's first line, or "" when the run is no LeftOpen
		trace string // a sentence the trace must hold
	}{
		{
			name:  "it answers with its transaction open: rolled back, and the run says so",
			plans: []scheduler.WorkerPlan[int]{{Name: "A", Run: forgets}},
			want:  "Worker A: your handler answered with its transaction still open (A answers 1).",
			trace: "A answers 1. Its transaction rolls back: ticket #1 is gone.",
		},
		{
			name:  "it throws with its transaction open, once every worker has ended",
			plans: []scheduler.WorkerPlan[int]{{Name: "A", Run: throws}, {Name: "B", Run: insertInTransaction}},
			want:  "Worker A: your handler stopped with an error with its transaction still open (A stops with an error: no rollback on the way out).",
			trace: "B answers 2.",
		},
		{
			name:  "a crash inside a transaction is not leaving it open: the worker never returned",
			plans: []scheduler.WorkerPlan[int]{{Name: "A", Run: forgets, Crash: &scheduler.CrashPoint{When: "before-answering"}}},
			trace: "A crashes before it answers. Its transaction rolls back: ticket #1 is gone.",
		},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			db := database.New()
			_, err := scheduler.RunWorkers(db, test.plans, scheduler.OneAtATime(), scheduler.Options[int]{})
			var open *scheduler.LeftOpen
			switch {
			case test.want == "" && err != nil:
				t.Fatalf("RunWorkers: %v", err)
			case test.want != "" && !errors.As(err, &open):
				t.Fatalf("RunWorkers returned %v; want a *LeftOpen saying %q", err, test.want)
			case test.want != "" && !strings.HasPrefix(err.Error(), test.want+"\nUsually a return or a throw before commit or rollback."):
				t.Errorf("the story is\n%s\nwant it to start %q", err, test.want)
			}
			if told := database.TellTrace(db.TraceLines()); !strings.Contains(told, test.trace) {
				t.Errorf("the trace\n%s\nlacks %q", told, test.trace)
			}
		})
	}
}

func TestExploreAllCountsARunLeftInsideItsTransactionAsWrong(t *testing.T) {
	setUp := func() (*database.Database, []scheduler.WorkerPlan[int], scheduler.Options[int]) {
		return database.New(), []scheduler.WorkerPlan[int]{{Name: "A", Run: forgets}, {Name: "B", Run: forgets}}, scheduler.Options[int]{}
	}
	oneTicket := func(r scheduler.Run[int]) string {
		if n := len(r.DB.Committed().Tickets); n != 1 {
			return fmt.Sprintf("%d tickets", n)
		}
		return ""
	}
	explored, err := scheduler.ExploreAll(setUp, oneTicket, scheduler.ExploreOptions{NoPrune: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "0 tickets\nWorker A: your handler answered with its transaction still open (A answers 1).\n" + scheduler.LeftOpenMeans
	switch {
	case explored.Failed == 0 || explored.Failed != explored.Complete:
		t.Errorf("%d of %d complete runs judged wrong; want every one", explored.Failed, explored.Complete)
	case explored.Failures[0].Problem != want:
		t.Errorf("the first failure says\n%s\nwant\n%s", explored.Failures[0].Problem, want)
	case len(explored.Failures[0].Run.Steps) == 0:
		t.Errorf("the failure has no run to tell")
	}
}
