package postgres

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"workbook/database"
	"workbook/handler"
)

// Each worker holds its own server connection (its own backend process), and every operation is one SQL
// statement. BEGIN, COMMIT and ROLLBACK are PostgreSQL's own. SQLSTATE 23505 becomes UniqueViolation, 25P02
// TransactionAborted and 40P01 Deadlock, so a handler catches the same errors as on the model. PostgreSQL
// answers COMMIT of an aborted transaction with a rollback, not an error: here, as in the model, it is
// TransactionAborted.
//
// Waiting is the server's, never guessed by the clock: after sending a statement, the worker asks the server
// (pg_blocking_pids, on the place's monitor connection) which backends block it, again and again, until the
// statement answers or is seen waiting for another worker's open transaction. Then it says so in the trace
// and parks at the scheduler, its statement still open on the server; the scheduler does not pick it while
// that transaction is open. Picked again, it goes on asking.
//
// A worker that crashes or ends with a transaction or a statement open has its backend terminated
// (pg_terminate_backend, which returns once the process is gone), and PostgreSQL rolls it back. With nothing
// open, its connection is kept for the next worker.

// FromServer turns the server's error into the workbook's: the codes the model gives.
func FromServer(err error) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return err
	}
	switch pgErr.Code {
	case "23505":
		detail := strings.TrimSuffix(strings.TrimPrefix(pgErr.Detail, "Key "), ".")
		return &database.Error{Code: database.UniqueViolation, Message: pgErr.Message + ": " + detail}
	case "25P02":
		return database.ErrTransactionAborted
	case "40P01":
		return &database.Error{Code: database.Deadlock, Message: pgErr.Message}
	}
	return err
}

// Database is one run's view of a Place: the trace, and which workers have something open and whom each
// waits for. Only one worker runs at a time, so these need no lock.
type Database struct {
	place    *Place
	step     int
	trace    []database.TraceLine
	open     map[string]bool
	waiting  map[string]string
	conns    map[string]*Conn
	workerOf map[uint32]string
}

// Open connects a worker with a server connection of its own.
func (db *Database) Open(worker string, gate database.Gate) (database.Connection, error) {
	pg, err := db.place.take()
	if err != nil {
		return nil, err
	}
	c := &Conn{db: db, pg: pg, pid: pg.PgConn().PID(), worker: worker, gate: gate}
	db.workerOf[c.pid] = worker
	db.conns[worker] = c
	return c, nil
}

// BlockedBy names the worker whose open transaction this worker's statement waits for, or "".
func (db *Database) BlockedBy(worker string) string {
	holder := db.waiting[worker]
	if holder == "" || !db.open[holder] {
		return ""
	}
	// Once the server has answered, the worker waits for nobody, even before it hears the answer.
	if c := db.conns[worker]; c != nil && c.inFlight != nil && c.inFlight.ready() {
		return ""
	}
	return holder
}

// waitsOn says whether worker waits, through any chain of waits, for target.
func (db *Database) waitsOn(worker, target string) bool {
	seen := map[string]bool{}
	for next := db.BlockedBy(worker); next != "" && !seen[next]; next = db.BlockedBy(next) {
		if next == target {
			return true
		}
		seen[next] = true
	}
	return false
}

// blockers are the workers whose backends block this backend now, asked of the server.
func (db *Database) blockers(pid uint32) ([]string, error) {
	var pids []int32
	err := db.place.ask(func(rows pgx.Rows) error { return rows.Scan(&pids) }, "SELECT pg_blocking_pids($1)", pid)
	var names []string
	for _, blocker := range pids {
		if name, ok := db.workerOf[uint32(blocker)]; ok {
			names = append(names, name)
		}
	}
	return names, err
}

// StepNow is the scheduler's step.
func (db *Database) StepNow() int { return db.step }

// SetStep sets the scheduler's step.
func (db *Database) SetStep(step int) { db.step = step }

// Say adds a sentence to the trace.
func (db *Database) Say(worker, text string) {
	db.trace = append(db.trace, database.TraceLine{Step: db.step, Worker: worker, Text: text})
}

// TraceLines is everything said so far.
func (db *Database) TraceLines() []database.TraceLine { return db.trace }

// StateKey is not there: ExploreAll walks the in-memory database only.
func (db *Database) StateKey() string {
	panic("ExploreAll walks the in-memory database only: give it a database.New()")
}

// Read is what was committed, read from the server, listed as the model lists it.
func (db *Database) Read() (database.Contents, error) {
	var contents database.Contents
	err := errors.Join(
		db.place.ask(func(rows pgx.Rows) error {
			var t handler.Ticket
			err := rows.Scan(&t.ID, &t.Tenant, &t.Subject)
			contents.Tickets = append(contents.Tickets, t)
			return err
		}, "SELECT id, tenant, subject FROM tickets ORDER BY id"),
		db.place.ask(func(rows pgx.Rows) error {
			var r handler.Receipt
			err := rows.Scan(&r.Tenant, &r.Source, &r.EventID, &r.Subject, &r.TicketID)
			contents.Receipts = append(contents.Receipts, r)
			return err
		}, "SELECT tenant, source, event_id, subject, ticket_id FROM receipts ORDER BY ticket_id"),
		db.place.ask(func(rows pgx.Rows) error {
			var o database.OutboxRow
			err := rows.Scan(&o.ID, &o.Key, &o.Tenant, &o.TicketID, &o.To, &o.Subject, &o.State)
			contents.Outbox = append(contents.Outbox, o)
			return err
		}, `SELECT id, key, tenant, ticket_id, "to", subject, state FROM outbox ORDER BY id`),
	)
	return contents, err
}

// Committed is Read for the scheduler's Run; a server that can't answer panics, failing the test.
func (db *Database) Committed() database.Contents {
	contents, err := db.Read()
	if err != nil {
		panic("reading what was committed from PostgreSQL: " + err.Error())
	}
	return contents
}

func listed(parts []string) string {
	if len(parts) > 1 {
		return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	return strings.Join(parts, "")
}

func gone(writes string) string {
	if strings.Contains(writes, " and ") {
		return writes + " are gone"
	}
	return writes + " is gone"
}

// drop lets a worker's connection go: with something open its backend is terminated, so the server rolls
// it back; otherwise it is kept for the next worker.
func (db *Database) drop(c *Conn, open bool) {
	ctx := context.Background()
	if !open {
		db.place.idle = append(db.place.idle, c.pg)
		return
	}
	// pg_terminate_backend(pid, timeout) returns once the backend has exited and its locks are free.
	_ = db.place.ask(nil, "SELECT pg_terminate_backend($1, 10000)", c.pid)
	if c.inFlight != nil {
		<-c.inFlight.finished
	}
	_ = c.pg.Close(ctx)
}
