package postgres

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"workbook/database"
	"workbook/handler"
)

func TestFromServerGivesTheModelsCodes(t *testing.T) {
	plain := errors.New("connection refused")
	cases := []struct {
		name    string
		err     error
		code    database.Code
		message string
	}{
		{"unique violation", &pgconn.PgError{Code: "23505", Message: `duplicate key value violates unique constraint "receipts_identity"`, Detail: "Key (tenant, source, event_id)=(acme, helpdesk, evt-42) already exists."},
			database.UniqueViolation, `duplicate key value violates unique constraint "receipts_identity": (tenant, source, event_id)=(acme, helpdesk, evt-42) already exists`},
		{"aborted transaction", &pgconn.PgError{Code: "25P02", Message: "current transaction is aborted"}, database.TransactionAborted, database.ErrTransactionAborted.Message},
		{"deadlock", &pgconn.PgError{Code: "40P01", Message: "deadlock detected"}, database.Deadlock, "deadlock detected"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var dbErr *database.Error
			if !errors.As(FromServer(c.err), &dbErr) || dbErr.Code != c.code || dbErr.Message != c.message {
				t.Errorf("FromServer(%v) = %v, expected %s: %s", c.err, FromServer(c.err), c.code, c.message)
			}
		})
	}
	other := &pgconn.PgError{Code: "42P01", Message: "relation does not exist"}
	for _, err := range []error{plain, other} {
		if got := FromServer(err); got != err {
			t.Errorf("FromServer(%v) = %v, expected the error unchanged", err, got)
		}
	}
}

func TestURLOfNamesAnotherDatabase(t *testing.T) {
	got, err := URLOf("postgres://postgres:secret@127.0.0.1:5432/postgres", "workbook_go_1_1")
	if want := "postgres://postgres:secret@127.0.0.1:5432/workbook_go_1_1"; err != nil || got != want {
		t.Errorf("URLOf = %q, %v; expected %q", got, err, want)
	}
}

// anyTime lets every operation run at once: a test without a scheduler.
type anyTime struct{}

func (anyTime) Turn(string, database.Operation) {}

// TestACrashEndsTheBackendAndRollsBack: a worker that dies inside its transaction takes its backend with
// it, and the server throws its writes away (the ticket's number stays used).
func TestACrashEndsTheBackendAndRollsBack(t *testing.T) {
	place := ForTest(t)
	db, err := place.Fresh()
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Open("A", anyTime{})
	if err != nil {
		t.Fatal(err)
	}
	pid := conn.(*Conn).pid
	if err := conn.Begin(); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.SaveTicket("acme", "Cannot sign in"); err != nil {
		t.Fatal(err)
	}
	conn.Close("A crashes.")
	var alive bool
	if err := place.ask(func(rows pgx.Rows) error { return rows.Scan(&alive) }, "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1)", pid); err != nil {
		t.Fatal(err)
	}
	if alive {
		t.Errorf("backend %d is still there after its worker crashed", pid)
	}
	if got := db.Committed(); len(got.Tickets) != 0 {
		t.Errorf("the crashed transaction's ticket was committed: %v", got.Tickets)
	}
	next, err := db.Open("B", anyTime{})
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close("B is done.")
	if id, err := next.SaveTicket("acme", "Second"); err != nil || id != 2 {
		t.Errorf("the next ticket got #%d (%v); expected #2, since the rolled-back insert used up #1", id, err)
	}
	if _, err := next.FindReceipt(handler.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-1"}); err != nil {
		t.Error(err)
	}
}

// TestWithoutBinariesTheOneLineNamesTheSetUp: a workbook whose node_modules has no PostgreSQL says which
// command puts it there, in one line, instead of skipping.
func TestWithoutBinariesTheOneLineNamesTheSetUp(t *testing.T) {
	_, _, err := binaries(t.TempDir())
	if err == nil {
		t.Fatal("binaries() found PostgreSQL in an empty folder")
	}
	if said := err.Error(); !strings.Contains(said, "npm ci") || strings.Contains(said, "\n") {
		t.Errorf("binaries() in an empty folder said %q; want one line naming npm ci", said)
	}
}

// TestAServerOfItsOwn: with no WORKBOOK_POSTGRES_URL, StartServer starts a PostgreSQL that answers, and
// stop takes it and its folder away.
func TestAServerOfItsOwn(t *testing.T) {
	url, stop, err := StartServer()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatalf("the server StartServer started takes no connection: %v", err)
	}
	var one int
	if err := conn.QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("SELECT 1 = %d, %v", one, err)
	}
	_ = conn.Close(context.Background())
	stop()
	if _, err := pgx.Connect(context.Background(), url); err == nil {
		t.Error("the server still answers after stop()")
	}
}
