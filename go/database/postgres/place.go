// Package postgres puts the workbook's database on a real PostgreSQL server, behind the same
// database.Connection as the in-memory model: the Go twin of harness/postgres/. Handlers run
// unchanged on either, the scheduler steps them the same way, and their traces read the same.
//
//	place, err := postgres.NewPlace(ctx, serverURL) // CREATE DATABASE workbook_go_…, with the tables
//	db, err := place.Fresh()                        // tables emptied, sequences back to 1
//	run, err := scheduler.RunWorkers(db, plans, pick, opts)
//	db.Committed()                                  // read back from the server
//	place.Drop()                                    // closes every connection, drops the database
//
// The tables are place.ts's, in the same SQL: tickets numbered by a sequence (a rolled-back insert burns its
// number), receipts unique on (tenant, source, event_id), outbox rows numbered by a sequence, unique on their
// key, pending until marked sent. See conn.go for the errors, the waits and the crashes.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Schema is the workbook's tables, as harness/postgres/place.ts has them.
const Schema = `
CREATE TABLE tickets (
	id serial PRIMARY KEY,
	tenant text NOT NULL,
	subject text NOT NULL
);
CREATE TABLE receipts (
	tenant text NOT NULL,
	source text NOT NULL,
	event_id text NOT NULL,
	subject text NOT NULL,
	ticket_id integer NOT NULL,
	CONSTRAINT receipts_identity UNIQUE (tenant, source, event_id)
);
CREATE TABLE outbox (
	id serial PRIMARY KEY,
	key text NOT NULL CONSTRAINT outbox_key UNIQUE,
	tenant text NOT NULL,
	ticket_id integer NOT NULL,
	"to" text NOT NULL,
	subject text NOT NULL,
	state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent'))
);`

// URLVariable names the server the tests use; npm run verify (lib/go-test.ts) sets it. Without it, the
// tests start one of their own (ServerURL).
const URLVariable = "WORKBOOK_POSTGRES_URL"

// URLOf is another database on the same server: postgres://…/postgres → postgres://…/name.
func URLOf(serverURL, database string) (string, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return "", fmt.Errorf("%s is not a URL: %w", URLVariable, err)
	}
	u.Path = "/" + database
	return u.String(), nil
}

var made atomic.Int64

// Place is one database of its own on the server, with the tables, and the connections kept for it.
type Place struct {
	serverURL, Name, url string
	monitor              *pgx.Conn
	lock                 sync.Mutex // the monitor answers one question at a time
	idle                 []*pgx.Conn
}

// NewPlace creates a database of its own on the server, with the workbook's tables.
func NewPlace(ctx context.Context, serverURL string) (*Place, error) {
	name := fmt.Sprintf("workbook_go_%d_%d", os.Getpid(), made.Add(1))
	if err := withConn(ctx, serverURL, "CREATE DATABASE "+name); err != nil {
		return nil, err
	}
	place := &Place{serverURL: serverURL, Name: name}
	var err error
	if place.url, err = URLOf(serverURL, name); err != nil {
		return nil, err
	}
	if place.monitor, err = pgx.Connect(ctx, place.url); err == nil {
		_, err = place.monitor.Exec(ctx, Schema)
	}
	if err != nil {
		return nil, errors.Join(err, place.Drop())
	}
	return place, nil
}

// ServerURL is the server a test uses: WORKBOOK_POSTGRES_URL when it is set (npm run verify sets it), else a
// PostgreSQL of this test binary's own (StartServer), started for the first test that asks and stopped
// when the last one holding it ends, on failure too. When none can start, the test fails in one line that
// names the set-up command: never a skip, so a missing server can't pass unnoticed.
func ServerURL(t testing.TB) string {
	t.Helper()
	if serverURL := os.Getenv(URLVariable); serverURL != "" {
		return serverURL
	}
	serverURL, err := own.hold()
	if err != nil {
		t.Fatalf("These tests play on a real PostgreSQL, and none could start: %v", err)
	}
	t.Cleanup(own.release)
	return serverURL
}

// Main runs a test binary's tests, from its TestMain, with one server for all of them: started by the
// first test that asks, as ServerURL does, and stopped once every test has run, not each time the tests
// holding it end. A run none of whose tests ask (a stub stops them first) starts none.
//
//	func TestMain(m *testing.M) { os.Exit(postgres.Main(m)) }
func Main(m *testing.M) int {
	own.lock.Lock()
	own.holders++
	own.lock.Unlock()
	defer own.release()
	return m.Run()
}

// own is the test binary's own server, and how many hold it (the tests, and Main).
var own ownServer

type ownServer struct {
	lock    sync.Mutex
	holders int
	url     string
	stop    func()
}

func (s *ownServer) hold() (string, error) {
	s.lock.Lock()
	defer s.lock.Unlock()
	if s.url == "" {
		url, stop, err := StartServer()
		if err != nil {
			return "", err
		}
		s.url, s.stop = url, stop
	}
	s.holders++
	return s.url, nil
}

func (s *ownServer) release() {
	s.lock.Lock()
	defer s.lock.Unlock()
	if s.holders--; s.holders == 0 && s.url != "" {
		s.stop()
		s.url = ""
	}
}

// ForTest is a fresh place for one test, dropped when it ends; ServerURL says what happens without a server.
func ForTest(t testing.TB) *Place {
	t.Helper()
	serverURL := ServerURL(t)
	place, err := NewPlace(context.Background(), serverURL)
	if err != nil {
		t.Fatalf("could not make a database on %s: %v", URLVariable, err)
	}
	t.Cleanup(func() {
		if err := place.Drop(); err != nil {
			t.Errorf("could not drop %s: %v", place.Name, err)
		}
	})
	return place
}

// Fresh empties the tables and sets the sequences back to 1: a database for one run. Every worker of the
// last run is gone by now (RunWorkers closes them), so nothing holds a lock.
func (p *Place) Fresh() (*Database, error) {
	// A run that stopped with an error can leave workers behind with transactions open: their backends go,
	// so the next run starts on empty, unlocked tables. Kept connections are idle and stay.
	if err := p.ask(nil, `SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`); err != nil {
		return nil, err
	}
	if err := p.ask(nil, "TRUNCATE tickets, receipts, outbox RESTART IDENTITY"); err != nil {
		return nil, err
	}
	return &Database{place: p, open: map[string]bool{}, waiting: map[string]string{}, conns: map[string]*Conn{}, workerOf: map[uint32]string{}}, nil
}

// FreshFor is Fresh in a test: an empty database, or the test stops saying why.
func (p *Place) FreshFor(t testing.TB) *Database {
	t.Helper()
	db, err := p.Fresh()
	if err != nil {
		t.Fatalf("could not empty the tables: %v", err)
	}
	return db
}

// EachSchedule runs check on every schedule load returns, each in a subtest of its name with an empty
// database of its own; schedules that do not load stop the test.
func EachSchedule[S interface{ ScheduleName() string }](t *testing.T, p *Place, load func() ([]S, error), check func(t *testing.T, s S, db *Database)) {
	t.Helper()
	all, err := load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		t.Run(s.ScheduleName(), func(t *testing.T) { check(t, s, p.FreshFor(t)) })
	}
}

// Drop closes every connection and drops the database.
func (p *Place) Drop() error {
	ctx := context.Background()
	for _, conn := range p.idle {
		_ = conn.Close(ctx)
	}
	p.idle = nil
	if p.monitor != nil {
		_ = p.monitor.Close(ctx)
	}
	return withConn(ctx, p.serverURL, "DROP DATABASE IF EXISTS "+p.Name+" WITH (FORCE)")
}

// take is a connection for a worker: one kept from an earlier worker, or a new one.
func (p *Place) take() (*pgx.Conn, error) {
	if n := len(p.idle); n > 0 {
		conn := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return conn, nil
	}
	return pgx.Connect(context.Background(), p.url)
}

// ask runs one statement on the monitor connection, which watches and reads for the workers, calling each
// for every row. The monitor answers one question at a time.
func (p *Place) ask(each func(pgx.Rows) error, sql string, args ...any) error {
	p.lock.Lock()
	defer p.lock.Unlock()
	return readRows(p.monitor, each, sql, args...)
}

// readRows runs a query on conn and calls each (nil: none) for every row it returns.
func readRows(conn *pgx.Conn, each func(pgx.Rows) error, sql string, args ...any) error {
	rows, err := conn.Query(context.Background(), sql, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if each != nil {
			if err := each(rows); err != nil {
				return err
			}
		}
	}
	return rows.Err()
}

func withConn(ctx context.Context, serverURL, sql string) error {
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}
