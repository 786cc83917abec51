// Package database is an in-memory database that behaves like PostgreSQL where the workbook needs it to,
// the Go twin of harness/database/database.ts: transactions whose writes stay private until commit,
// sequences that a rolled-back insert still uses up, and unique keys where a second insert of a key that
// another open transaction holds waits for that transaction to end, then fails if it committed.
//
// Outside a transaction each operation commits on its own. Any error inside a transaction aborts it:
// every later operation fails with ErrTransactionAborted until rollback. A wait that would close a cycle
// fails with a deadlock. Every operation but Begin is a point where a scheduler may run another worker
// first (see package scheduler).
package database

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"workbook/handler"
)

// OutboxState is whether the relay has sent an outbox row's email yet.
type OutboxState string

// An outbox row is pending until the relay marks it sent.
const (
	Pending OutboxState = "pending"
	Sent    OutboxState = "sent"
)

// Values lists the states a schedule may name.
func (OutboxState) Values() []string { return []string{"pending", "sent"} }

// OutboxRow says what to send after the commit, under the email's own idempotency key.
type OutboxRow struct {
	ID       int         `json:"id"`
	Key      string      `json:"key"`
	Tenant   string      `json:"tenant"`
	TicketID int         `json:"ticketId"`
	To       string      `json:"to"`
	Subject  string      `json:"subject"`
	State    OutboxState `json:"state"`
}

// Contents is what the database holds.
type Contents struct {
	Tickets  []handler.Ticket
	Receipts []handler.Receipt
	Outbox   []OutboxRow
}

// Operation is what a worker asks the scheduler for. Writes says it saves or changes a row (committed or
// not): that is where a before-write crash strikes. Commits says doing it makes a write durable (a commit
// with writes, or a write outside a transaction): that is where a before-commit crash strikes.
type Operation struct {
	Name    string
	Writes  bool
	Commits bool
}

// Gate is the scheduler's side of a connection: Turn returns when the worker may run its next operation.
type Gate interface {
	Turn(worker string, op Operation)
}

type noGate struct{}

func (noGate) Turn(string, Operation) {}

// Code names the kind of a database error, so schedules can name it.
type Code string

// The errors a worker can get from the database.
const (
	UniqueViolation    Code = "unique-violation"
	TransactionAborted Code = "transaction-aborted"
	Deadlock           Code = "deadlock"
	Misuse             Code = "misuse"
)

// Error is an error from the database, with its code.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return e.Message }

// ErrTransactionAborted is what every operation of an aborted transaction gets, until rollback.
var ErrTransactionAborted = &Error{TransactionAborted, "current transaction is aborted, commands ignored until end of transaction block"}

// TraceLine is one thing that happened: the scheduler's step (0 before the first), who, and a sentence.
type TraceLine struct {
	Step   int
	Worker string
	Text   string
}

type transaction struct {
	worker   string
	tickets  []handler.Ticket
	receipts []handler.Receipt
	outbox   []OutboxRow
	sent     []int
	locks    []string
	aborted  bool
	open     bool
}

// Database holds the committed rows, the sequences, the open transactions and who waits for whom.
type Database struct {
	data      Contents
	sequences struct{ tickets, outbox int }
	locks     map[string]*transaction
	open      map[string]*transaction
	waiting   map[string]*transaction
	// Step is set by the scheduler; every trace line carries it.
	Step  int
	Trace []TraceLine
}

// New returns an empty database.
func New() *Database {
	// Room for a run's trace at once: an exploration makes a database for each of hundreds of runs.
	return &Database{locks: map[string]*transaction{}, open: map[string]*transaction{}, waiting: map[string]*transaction{}, Trace: make([]TraceLine, 0, 24)}
}

// Connect opens a connection for one worker; gate is the scheduler's, or nil to run without one.
func (db *Database) Connect(worker string, gate Gate) *Conn {
	if gate == nil {
		gate = noGate{}
	}
	return &Conn{db: db, Worker: worker, gate: gate}
}

// Committed returns a copy of what was committed.
func (db *Database) Committed() Contents {
	// A table has no order of its own: listed as PostgreSQL lists them, by id and by ticket.
	contents := Contents{
		Tickets:  append([]handler.Ticket{}, db.data.Tickets...),
		Receipts: append([]handler.Receipt{}, db.data.Receipts...),
		Outbox:   append([]OutboxRow{}, db.data.Outbox...),
	}
	slices.SortStableFunc(contents.Tickets, func(a, b handler.Ticket) int { return a.ID - b.ID })
	slices.SortStableFunc(contents.Receipts, func(a, b handler.Receipt) int { return a.TicketID - b.TicketID })
	slices.SortStableFunc(contents.Outbox, func(a, b OutboxRow) int { return a.ID - b.ID })
	return contents
}

// Say adds a sentence to the trace.
func (db *Database) Say(worker, text string) {
	db.Trace = append(db.Trace, TraceLine{db.Step, worker, text})
}

// BlockedBy names the worker whose open transaction this worker waits for, or "".
func (db *Database) BlockedBy(worker string) string {
	holder, ok := db.waiting[worker]
	if ok && holder.open {
		return holder.worker
	}
	delete(db.waiting, worker)
	return ""
}

// StateKey is everything that decides what happens next, as text: two runs in the same state behave the
// same from here on. Written field by field, each string quoted, without fmt: an exploration asks for it at
// every step of thousands of runs.
func (db *Database) StateKey() string {
	b := make([]byte, 0, 256)
	b = appendTickets(b, db.data.Tickets)
	b = appendReceipts(b, db.data.Receipts)
	b = strconv.AppendInt(append(b, '|'), int64(db.sequences.tickets), 10)
	b = strconv.AppendInt(append(b, ','), int64(db.sequences.outbox), 10)
	b = appendOutbox(append(b, '|'), db.data.Outbox)
	for _, worker := range slices.Sorted(maps.Keys(db.open)) {
		tx := db.open[worker]
		b = strconv.AppendQuote(append(b, "|tx "...), worker)
		b = appendTickets(append(b, ' '), tx.tickets)
		b = appendReceipts(append(b, ' '), tx.receipts)
		b = appendOutbox(append(b, ' '), tx.outbox)
		b = append(b, " sent"...)
		for _, id := range tx.sent {
			b = strconv.AppendInt(append(b, ' '), int64(id), 10)
		}
		b = strconv.AppendBool(append(b, ' '), tx.aborted)
	}
	for _, worker := range slices.Sorted(maps.Keys(db.waiting)) {
		tx := db.waiting[worker]
		b = strconv.AppendQuote(append(b, "|wait "...), worker)
		b = strconv.AppendQuote(append(b, ' '), tx.worker)
		b = strconv.AppendBool(append(b, ' '), tx.open)
	}
	return string(b)
}

func appendTickets(b []byte, tickets []handler.Ticket) []byte {
	b = append(b, '[')
	for _, t := range tickets {
		b = strconv.AppendInt(append(b, '{'), int64(t.ID), 10)
		b = strconv.AppendQuote(append(b, ' '), t.Tenant)
		b = append(strconv.AppendQuote(append(b, ' '), t.Subject), '}')
	}
	return append(b, ']')
}

func appendReceipts(b []byte, receipts []handler.Receipt) []byte {
	b = append(b, '[')
	for _, r := range receipts {
		b = appendWebhook(append(b, '{'), r.Event)
		b = append(strconv.AppendInt(append(b, ' '), int64(r.TicketID), 10), '}')
	}
	return append(b, ']')
}

func appendWebhook(b []byte, w handler.Webhook) []byte {
	b = strconv.AppendQuote(b, w.Tenant)
	b = strconv.AppendQuote(append(b, ' '), w.Source)
	b = strconv.AppendQuote(append(b, ' '), w.EventID)
	return strconv.AppendQuote(append(b, ' '), w.Subject)
}

func appendOutbox(b []byte, rows []OutboxRow) []byte {
	b = append(b, '[')
	for _, o := range rows {
		b = strconv.AppendInt(append(b, '{'), int64(o.ID), 10)
		for _, field := range []string{o.Key, o.Tenant} {
			b = strconv.AppendQuote(append(b, ' '), field)
		}
		b = strconv.AppendInt(append(b, ' '), int64(o.TicketID), 10)
		for _, field := range []string{o.To, o.Subject, string(o.State)} {
			b = strconv.AppendQuote(append(b, ' '), field)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// Disconnect is the worker's process going away: its open transaction rolls back, as when PostgreSQL
// loses a connection.
func (db *Database) Disconnect(worker, why string) {
	tx := db.open[worker]
	delete(db.waiting, worker)
	if tx == nil {
		db.Say(worker, why)
		return
	}
	writes := saidWrites(tx)
	db.end(tx)
	if writes != "" {
		db.Say(worker, why+" Its transaction rolls back: "+gone(writes)+".")
	} else {
		db.Say(worker, why+" Its transaction rolls back.")
	}
}

func (db *Database) begin(worker string) *transaction {
	tx := &transaction{worker: worker, open: true}
	db.open[worker] = tx
	return tx
}

func (db *Database) commit(tx *transaction) string {
	writes := saidWrites(tx)
	db.data.Tickets = append(db.data.Tickets, tx.tickets...)
	db.data.Receipts = append(db.data.Receipts, tx.receipts...)
	db.data.Outbox = append(db.data.Outbox, tx.outbox...)
	for i, row := range db.data.Outbox {
		if slices.Contains(tx.sent, row.ID) {
			db.data.Outbox[i].State = Sent
		}
	}
	db.end(tx)
	return writes
}

func (db *Database) rollback(tx *transaction) string {
	writes := saidWrites(tx)
	db.end(tx)
	return writes
}

func (db *Database) end(tx *transaction) {
	tx.open = false
	for _, lock := range tx.locks {
		delete(db.locks, lock)
	}
	delete(db.open, tx.worker)
}

func (db *Database) receipts(tx *transaction) []handler.Receipt {
	return append(append([]handler.Receipt{}, db.data.Receipts...), tx.receipts...)
}

func (db *Database) tickets(tx *transaction) []handler.Ticket {
	return append(append([]handler.Ticket{}, db.data.Tickets...), tx.tickets...)
}

func (db *Database) outbox(tx *transaction) []OutboxRow {
	rows := append(append([]OutboxRow{}, db.data.Outbox...), tx.outbox...)
	for i := range rows {
		if slices.Contains(tx.sent, rows[i].ID) {
			rows[i].State = Sent
		}
	}
	return rows
}

// wait is an operation that can't go on yet: another open transaction holds what it needs.
type wait struct {
	holder *transaction
	why    string
}

// lock takes a lock for tx, or says which open transaction it must wait for. A wait that closes a cycle
// is a deadlock.
func (db *Database) lock(tx *transaction, name, why string) (*wait, error) {
	holder := db.locks[name]
	if holder == nil {
		db.locks[name] = tx
		tx.locks = append(tx.locks, name)
		return nil, nil
	}
	if holder == tx {
		return nil, nil
	}
	for next := holder; next != nil; next = db.waiting[next.worker] {
		if next.worker == tx.worker {
			db.Say(tx.worker, fmt.Sprintf("%s %sit would wait for %s, which waits for it: deadlock detected.", tx.worker, why, holder.worker))
			return nil, &Error{Deadlock, fmt.Sprintf("deadlock detected: %s waits for %s, which waits for %s", tx.worker, holder.worker, tx.worker)}
		}
		if !next.open {
			break
		}
	}
	db.waiting[tx.worker] = holder
	return &wait{holder, why}, nil
}

// saidWrites lists a transaction's writes: "ticket #2 and receipt acme/helpdesk/evt-42 → #2".
func saidWrites(tx *transaction) string {
	var parts []string
	for _, t := range tx.tickets {
		parts = append(parts, "ticket #"+strconv.Itoa(t.ID))
	}
	for _, r := range tx.receipts {
		parts = append(parts, "receipt "+handler.SaidIdentity(r.Event)+" → #"+strconv.Itoa(r.TicketID))
	}
	for _, o := range tx.outbox {
		parts = append(parts, "outbox row #"+strconv.Itoa(o.ID))
	}
	for _, id := range tx.sent {
		parts = append(parts, "outbox row #"+strconv.Itoa(id)+" marked sent")
	}
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

// TellTrace prints a trace, one sentence a line, numbered by step: "     3. A saves ticket #1 (…)."
// Lines of one step share its number. Written without fmt: every play tells its trace.
func TellTrace(trace []TraceLine) string {
	var b strings.Builder
	last := -1
	for i, line := range trace {
		if i > 0 {
			b.WriteByte('\n')
		}
		number := ""
		if line.Step != last {
			number = strconv.Itoa(line.Step) + "."
			if line.Step == 0 {
				number = "start"
			}
		}
		last = line.Step
		for range 6 - len(number) {
			b.WriteByte(' ')
		}
		b.WriteString(number)
		b.WriteByte(' ')
		b.WriteString(line.Text)
	}
	return b.String()
}
