package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/jackc/pgx/v5"

	"workbook/database"
	"workbook/handler"
)

// Conn is one worker's connection to the server. Its sentences are the model's, word for word, so the
// two traces can be compared line by line.
type Conn struct {
	db       *Database
	pg       *pgx.Conn
	pid      uint32
	worker   string
	gate     database.Gate
	tx       *transaction
	closed   bool
	inFlight *answer // the statement sent and not yet heard
	busy     atomic.Bool
	done     []string
	heard    []string
}

// transaction is what the worker knows of its open transaction, to tell it: the server keeps the rows.
type transaction struct {
	writes   []string
	receipts []handler.Receipt
	outbox   map[string]int // key → id
	aborted  bool
}

// answer is a statement's answer, kept until the worker may hear it.
type answer struct {
	finished chan struct{}
	err      error
}

func (a *answer) ready() bool {
	select {
	case <-a.finished:
		return true
	default:
		return false
	}
}

// Name is the worker who holds the connection.
func (c *Conn) Name() string { return c.worker }

// Log is what the worker has run so far, and what each operation answered.
func (c *Conn) Log() (done, heard []string) { return c.done, c.heard }

// Busy says whether the worker is in a call to the server: the scheduler does not take a slow server for a
// worker stuck on something else.
func (c *Conn) Busy() bool { return c.busy.Load() }

// working marks the worker in a call to the server, until the returned func is called.
func (c *Conn) working() func() {
	c.busy.Store(true)
	return func() { c.busy.Store(false) }
}

// InTransaction says whether a transaction is open.
func (c *Conn) InTransaction() bool { return c.tx != nil }

// Begin opens a transaction. As in the model, it is not a scheduling point.
func (c *Conn) Begin() error {
	if err := c.usable("begin"); err != nil {
		return err
	}
	if c.tx != nil {
		return c.misuse("begin: a transaction is already open; commit or roll it back first")
	}
	defer c.working()()
	if _, err := c.pg.Exec(context.Background(), "BEGIN"); err != nil {
		return FromServer(err)
	}
	c.tx = &transaction{outbox: map[string]int{}}
	c.db.open[c.worker] = true
	c.db.Say(c.worker, c.worker+" begins a transaction.")
	return nil
}

// Commit makes the transaction's writes visible to everyone, or fails if an error aborted it.
func (c *Conn) Commit() (err error) {
	commits := c.tx != nil && !c.tx.aborted && len(c.tx.writes) > 0
	if err := c.turn(database.Operation{Name: "commit", Commits: commits}); err != nil {
		return err
	}
	defer c.working()()
	defer func() { c.finished("commit", err, nil) }()
	tx := c.tx
	if tx == nil {
		return c.misuse("commit: no transaction is open (call Begin first)")
	}
	c.tx = nil
	tag, err := c.pg.Exec(context.Background(), "COMMIT")
	delete(c.db.open, c.worker)
	if err != nil {
		return FromServer(err)
	}
	if tx.aborted || tag.String() == "ROLLBACK" {
		c.db.Say(c.worker, c.worker+" tries to commit, but an earlier error aborted its transaction: it rolls back.")
		return database.ErrTransactionAborted
	}
	if writes := listed(tx.writes); writes != "" {
		c.db.Say(c.worker, fmt.Sprintf("%s commits: %s can now be seen by everyone.", c.worker, writes))
	} else {
		c.db.Say(c.worker, c.worker+" commits (it wrote nothing).")
	}
	return nil
}

// Rollback throws the transaction's writes away.
func (c *Conn) Rollback() (err error) {
	if err := c.turn(database.Operation{Name: "rollback"}); err != nil {
		return err
	}
	defer c.working()()
	defer func() { c.finished("rollback", err, nil) }()
	tx := c.tx
	if tx == nil {
		return c.misuse("rollback: no transaction is open")
	}
	c.tx = nil
	_, err = c.pg.Exec(context.Background(), "ROLLBACK")
	delete(c.db.open, c.worker)
	if err != nil {
		return FromServer(err)
	}
	if writes := listed(tx.writes); writes != "" {
		c.db.Say(c.worker, fmt.Sprintf("%s rolls back: %s.", c.worker, gone(writes)))
	} else {
		c.db.Say(c.worker, c.worker+" rolls back (it wrote nothing).")
	}
	return nil
}

// FindReceipt returns the event's receipt, committed or this transaction's own, or nil.
func (c *Conn) FindReceipt(event handler.Webhook) (*handler.Receipt, error) {
	key := handler.SaidIdentity(event)
	var found *handler.Receipt
	err := c.run("find-receipt", false, "looks for a receipt for "+key, nil, func(rows pgx.Rows) error {
		var r handler.Receipt
		found = &r
		return rows.Scan(&r.Tenant, &r.Source, &r.EventID, &r.Subject, &r.TicketID)
	}, "SELECT tenant, source, event_id, subject, ticket_id FROM receipts WHERE tenant = $1 AND source = $2 AND event_id = $3",
		event.Tenant, event.Source, event.EventID)
	if err != nil {
		return nil, err
	}
	if found != nil {
		c.say(fmt.Sprintf("looks for a receipt for %s: found one, for ticket #%d.", key, found.TicketID))
	} else {
		c.say(fmt.Sprintf("looks for a receipt for %s: none.", key))
	}
	c.finished("find-receipt", nil, found)
	return found, nil
}

// FindTicket returns ticket id, or nil.
func (c *Conn) FindTicket(id int) (*handler.Ticket, error) {
	var found *handler.Ticket
	err := c.run("find-ticket", false, fmt.Sprintf("reads ticket #%d", id), nil, func(rows pgx.Rows) error {
		var t handler.Ticket
		found = &t
		return rows.Scan(&t.ID, &t.Tenant, &t.Subject)
	}, "SELECT id, tenant, subject FROM tickets WHERE id = $1", id)
	if err != nil {
		return nil, err
	}
	if found != nil {
		c.say(fmt.Sprintf("reads ticket #%d: %q.", id, found.Subject))
	} else {
		c.say(fmt.Sprintf("reads ticket #%d: not there.", id))
	}
	c.finished("find-ticket", nil, found)
	return found, nil
}

// SaveTicket inserts a ticket and returns its id, from the tickets' sequence.
func (c *Conn) SaveTicket(tenant, subject string) (int, error) {
	var id int
	err := c.run("save-ticket", true, "saves a ticket", nil, func(rows pgx.Rows) error { return rows.Scan(&id) },
		"INSERT INTO tickets (tenant, subject) VALUES ($1, $2) RETURNING id", tenant, subject)
	if err != nil {
		return 0, err
	}
	c.wrote(fmt.Sprintf("ticket #%d", id))
	c.say(fmt.Sprintf("saves ticket #%d (%s: %s)%s.", id, tenant, subject, c.where()))
	c.finished("save-ticket", nil, id)
	return id, nil
}

// SaveReceipt inserts a receipt; the receipts_identity key stops a second one for the same event.
func (c *Conn) SaveReceipt(receipt handler.Receipt) error {
	key := handler.SaidIdentity(receipt.Event)
	what := fmt.Sprintf("saves the receipt %s → #%d", key, receipt.TicketID)
	violated := func() {
		taken := -1
		if c.tx != nil {
			for _, r := range c.tx.receipts {
				if database.SameIdentity(r.Event, receipt.Event) {
					taken = r.TicketID
				}
			}
		}
		if taken < 0 {
			_ = c.db.place.ask(func(rows pgx.Rows) error { return rows.Scan(&taken) },
				"SELECT ticket_id FROM receipts WHERE tenant = $1 AND source = $2 AND event_id = $3", receipt.Tenant, receipt.Source, receipt.EventID)
		}
		c.say(fmt.Sprintf("%s: unique violation, %s already has a receipt (→ #%d).", what, key, taken))
	}
	err := c.run("save-receipt", true, what, violated, nil,
		"INSERT INTO receipts (tenant, source, event_id, subject, ticket_id) VALUES ($1, $2, $3, $4, $5)",
		receipt.Tenant, receipt.Source, receipt.EventID, receipt.Subject, receipt.TicketID)
	if err != nil {
		return err
	}
	c.wrote(fmt.Sprintf("receipt %s → #%d", key, receipt.TicketID))
	if c.tx != nil {
		c.tx.receipts = append(c.tx.receipts, receipt)
	}
	c.say(what + c.where() + ".")
	c.finished("save-receipt", nil, struct{}{})
	return nil
}

// SaveOutbox inserts a pending outbox row and returns its id; the outbox_key key stops a second one.
func (c *Conn) SaveOutbox(draft database.OutboxDraft) (int, error) {
	what := fmt.Sprintf("saves an outbox row for ticket #%d (key %s)", draft.TicketID, draft.Key)
	violated := func() {
		taken, own := 0, false
		if c.tx != nil {
			taken, own = c.tx.outbox[draft.Key]
		}
		if !own {
			_ = c.db.place.ask(func(rows pgx.Rows) error { return rows.Scan(&taken) }, "SELECT id FROM outbox WHERE key = $1", draft.Key)
		}
		c.say(fmt.Sprintf("%s: unique violation, outbox row #%d has that key.", what, taken))
	}
	var id int
	err := c.run("save-outbox", true, what, violated, func(rows pgx.Rows) error { return rows.Scan(&id) },
		`INSERT INTO outbox (key, tenant, ticket_id, "to", subject) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		draft.Key, draft.Tenant, draft.TicketID, draft.To, draft.Subject)
	if err != nil {
		return 0, err
	}
	c.wrote(fmt.Sprintf("outbox row #%d", id))
	if c.tx != nil {
		c.tx.outbox[draft.Key] = id
	}
	c.say(fmt.Sprintf("%s as row #%d%s.", what, id, c.where()))
	c.finished("save-outbox", nil, id)
	return id, nil
}

// PendingOutbox returns the outbox rows not yet sent, oldest first.
func (c *Conn) PendingOutbox() ([]database.OutboxRow, error) {
	var rows []database.OutboxRow
	err := c.run("pending-outbox", false, "reads the pending outbox rows", nil, func(r pgx.Rows) error {
		var o database.OutboxRow
		err := r.Scan(&o.ID, &o.Key, &o.Tenant, &o.TicketID, &o.To, &o.Subject, &o.State)
		rows = append(rows, o)
		return err
	}, `SELECT id, key, tenant, ticket_id, "to", subject, state FROM outbox WHERE state = 'pending' ORDER BY id`)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, row := range rows {
		ids = append(ids, fmt.Sprintf("#%d", row.ID))
	}
	said := "none"
	if len(ids) > 0 {
		said = strings.Join(ids, ", ")
	}
	c.say("reads the pending outbox rows: " + said + ".")
	c.finished("pending-outbox", nil, rows)
	return rows, nil
}

// MarkSent marks an outbox row sent, and says whether this changed it from pending.
func (c *Conn) MarkSent(id int) (bool, error) {
	what := fmt.Sprintf("marks outbox row #%d sent", id)
	var changed int
	var present bool
	// One statement: the update, and whether the row was there at all (to say which "nothing changes").
	err := c.run("mark-sent", true, what, nil, func(rows pgx.Rows) error { return rows.Scan(&changed, &present) },
		`WITH marked AS (UPDATE outbox SET state = 'sent' WHERE id = $1 AND state = 'pending' RETURNING id)
		SELECT (SELECT count(*) FROM marked)::int, EXISTS (SELECT 1 FROM outbox WHERE id = $1)`, id)
	if err != nil {
		return false, err
	}
	if changed == 0 {
		if present {
			c.say(what + ": it already was, nothing changes.")
		} else {
			c.say(what + ": there is no such row, nothing changes.")
		}
		c.finished("mark-sent", nil, false)
		return false, nil
	}
	c.wrote(fmt.Sprintf("outbox row #%d marked sent", id))
	c.say(what + c.where() + ".")
	c.finished("mark-sent", nil, true)
	return true, nil
}

// Step runs a step outside the database (see database.Outside): no statement, as in the model.
func (c *Conn) Step(name string, act func() (any, error)) (any, error) {
	if err := c.turn(database.Operation{Name: name}); err != nil {
		return nil, err
	}
	result, err := act()
	c.finished(name, err, result)
	return result, err
}

// Close ends the connection: the worker has finished or crashed. With a transaction or a statement open,
// its backend is terminated and the server rolls it back; Close returns once that is done.
func (c *Conn) Close(why string) {
	c.closed = true
	tx := c.tx
	c.tx = nil
	delete(c.db.waiting, c.worker)
	c.db.drop(c, tx != nil || c.inFlight != nil)
	c.inFlight = nil
	delete(c.db.open, c.worker)
	switch {
	case tx == nil:
		c.db.Say(c.worker, why)
	case len(tx.writes) > 0:
		c.db.Say(c.worker, fmt.Sprintf("%s Its transaction rolls back: %s.", why, gone(listed(tx.writes))))
	default:
		c.db.Say(c.worker, why+" Its transaction rolls back.")
	}
}

func (c *Conn) turn(op database.Operation) error {
	if err := c.usable(op.Name); err != nil {
		return err
	}
	c.gate.Turn(c.worker, op)
	return nil
}

// send starts a statement in the background; each (nil: none) reads every row it returns.
func (c *Conn) send(each func(pgx.Rows) error, sql string, args ...any) *answer {
	a := &answer{finished: make(chan struct{})}
	c.inFlight = a
	go func() {
		a.err = readRows(c.pg, each, sql, args...)
		close(a.finished)
	}()
	return a
}

// watch returns "" once the statement has answered, or the worker it is seen waiting for. It asks the
// server again and again meanwhile: no clock decides that a statement waits.
func (c *Conn) watch(a *answer) string {
	for !a.ready() {
		blockers, err := c.db.blockers(c.pid)
		if err != nil {
			<-a.finished
			break
		}
		if a.ready() {
			break
		}
		for _, holder := range blockers {
			// A holder that waits for this worker closes a cycle: the server's deadlock check ends it soon.
			if c.db.open[holder] && !c.db.waitsOn(holder, c.worker) {
				return holder
			}
		}
	}
	return ""
}

// run is one operation: its turn, its statement, and as many turns again as it waits for other
// transactions. violated (nil: none) tells a unique violation; each reads the rows.
func (c *Conn) run(name string, writes bool, what string, violated func(), each func(pgx.Rows) error, sql string, args ...any) error {
	op := database.Operation{Name: name, Writes: writes, Commits: writes && c.tx == nil}
	if err := c.turn(op); err != nil {
		return err
	}
	defer c.working()()
	own := c.tx
	if own == nil {
		c.db.open[c.worker] = true
	}
	a := c.send(each, sql, args...)
	for {
		holder := c.watch(a)
		if holder == "" {
			break
		}
		c.db.waiting[c.worker] = holder
		c.say(fmt.Sprintf("%s: %s's open transaction has the same key, so %s waits for it to end.", what, holder, c.worker))
		c.gate.Turn(c.worker, op)
	}
	delete(c.db.waiting, c.worker)
	c.inFlight = nil
	if own == nil {
		delete(c.db.open, c.worker)
	}
	if a.err == nil {
		return nil
	}
	err := FromServer(a.err)
	if own != nil {
		own.aborted = true
	}
	var dbErr *database.Error
	if errors.As(err, &dbErr) {
		switch {
		case dbErr.Code == database.TransactionAborted:
			c.say(fmt.Sprintf("tries to %s, but an earlier error aborted its transaction.", strings.Replace(name, "-", " ", 1)))
		case dbErr.Code == database.UniqueViolation && violated != nil:
			violated()
		case dbErr.Code == database.Deadlock:
			c.say(what + ": it would wait for a transaction that waits for it: deadlock detected.")
		}
	}
	c.finished(name, err, nil)
	return err
}

func (c *Conn) wrote(what string) {
	if c.tx != nil {
		c.tx.writes = append(c.tx.writes, what)
	}
}

func (c *Conn) usable(what string) error {
	if c.closed {
		return c.misuse(what + ": this connection is closed (the worker has finished)")
	}
	return nil
}

// finished notes what an operation answered, as the model notes it.
func (c *Conn) finished(name string, err error, result any) {
	c.done = append(c.done, name)
	var heard string
	var dbErr *database.Error
	switch {
	case errors.As(err, &dbErr):
		heard = string(dbErr.Code)
	case err != nil:
		heard = "error"
	default:
		data, _ := json.Marshal(result)
		heard = string(data)
	}
	c.heard = append(c.heard, name+":"+heard)
}

func (c *Conn) misuse(message string) error {
	return &database.Error{Code: database.Misuse, Message: c.worker + ": " + message}
}

func (c *Conn) say(text string) {
	c.db.Say(c.worker, c.worker+" "+text)
}

func (c *Conn) where() string {
	if c.tx != nil {
		return " in its transaction"
	}
	return ", committed at once"
}
