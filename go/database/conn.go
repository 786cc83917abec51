package database

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"workbook/handler"
)

// Conn is one worker's connection. Its methods run one operation each, after the scheduler's turn.
type Conn struct {
	db     *Database
	tx     *transaction
	closed bool
	gate   Gate
	// Worker is who holds the connection.
	Worker string
	// Done lists the operations the worker has run; Heard what each one answered. The scheduler reads
	// them for crash points and for the state of a run.
	Done  []string
	Heard []string
}

// InTransaction says whether a transaction is open.
func (c *Conn) InTransaction() bool { return c.tx != nil }

// Begin opens a transaction. It is not a scheduling point: BEGIN changes nothing anyone else sees.
func (c *Conn) Begin() error {
	if err := c.usable("begin"); err != nil {
		return err
	}
	if c.tx != nil {
		return c.misuse("begin: a transaction is already open; commit or roll it back first")
	}
	c.tx = c.db.begin(c.Worker)
	c.db.Say(c.Worker, c.Worker+" begins a transaction.")
	return nil
}

// Commit makes the transaction's writes visible to everyone, or fails if an error aborted it.
func (c *Conn) Commit() (err error) {
	commits := c.tx != nil && !c.tx.aborted && saidWrites(c.tx) != ""
	if err := c.turn(Operation{Name: "commit", Commits: commits}); err != nil {
		return err
	}
	defer func() { c.finished("commit", err, nil) }()
	tx := c.tx
	if tx == nil {
		return c.misuse("commit: no transaction is open (call Begin first)")
	}
	c.tx = nil
	if tx.aborted {
		c.db.rollback(tx)
		c.db.Say(c.Worker, c.Worker+" tries to commit, but an earlier error aborted its transaction: it rolls back.")
		return ErrTransactionAborted
	}
	if writes := c.db.commit(tx); writes != "" {
		c.db.Say(c.Worker, c.Worker+" commits: "+writes+" can now be seen by everyone.")
	} else {
		c.db.Say(c.Worker, c.Worker+" commits (it wrote nothing).")
	}
	return nil
}

// Rollback throws the transaction's writes away.
func (c *Conn) Rollback() (err error) {
	if err := c.turn(Operation{Name: "rollback"}); err != nil {
		return err
	}
	defer func() { c.finished("rollback", err, nil) }()
	tx := c.tx
	if tx == nil {
		return c.misuse("rollback: no transaction is open")
	}
	c.tx = nil
	if writes := c.db.rollback(tx); writes != "" {
		c.db.Say(c.Worker, c.Worker+" rolls back: "+gone(writes)+".")
	} else {
		c.db.Say(c.Worker, c.Worker+" rolls back (it wrote nothing).")
	}
	return nil
}

// FindReceipt returns the event's receipt, committed or this transaction's own, or nil.
func (c *Conn) FindReceipt(event handler.Webhook) (*handler.Receipt, error) {
	return run(c, "find-receipt", false, func(tx *transaction) (*handler.Receipt, *wait, error) {
		for _, r := range c.db.receipts(tx) {
			if SameIdentity(r.Event, event) {
				c.say("looks for a receipt for " + handler.SaidIdentity(event) + ": found one, for ticket #" + strconv.Itoa(r.TicketID) + ".")
				return &r, nil, nil
			}
		}
		c.say("looks for a receipt for " + handler.SaidIdentity(event) + ": none.")
		return nil, nil, nil
	})
}

// FindTicket returns ticket id, or nil.
func (c *Conn) FindTicket(id int) (*handler.Ticket, error) {
	return run(c, "find-ticket", false, func(tx *transaction) (*handler.Ticket, *wait, error) {
		for _, t := range c.db.tickets(tx) {
			if t.ID == id {
				c.say(fmt.Sprintf("reads ticket #%d: %q.", id, t.Subject))
				return &t, nil, nil
			}
		}
		c.say(fmt.Sprintf("reads ticket #%d: not there.", id))
		return nil, nil, nil
	})
}

// SaveTicket inserts a ticket and returns its id, taken from a sequence: a rolled-back insert uses it up.
func (c *Conn) SaveTicket(tenant, subject string) (int, error) {
	return run(c, "save-ticket", true, func(tx *transaction) (int, *wait, error) {
		c.db.sequences.tickets++
		ticket := handler.Ticket{ID: c.db.sequences.tickets, Tenant: tenant, Subject: subject}
		tx.tickets = append(tx.tickets, ticket)
		c.say("saves ticket #" + strconv.Itoa(ticket.ID) + " (" + tenant + ": " + subject + ")" + c.where() + ".")
		return ticket.ID, nil, nil
	})
}

// SaveReceipt inserts a receipt. The receipts table is unique on (tenant, source, eventId): a key that is
// committed fails at once; a key another open transaction inserted waits for it to end.
func (c *Conn) SaveReceipt(receipt handler.Receipt) error {
	key := handler.SaidIdentity(receipt.Event)
	_, err := run(c, "save-receipt", true, func(tx *transaction) (struct{}, *wait, error) {
		what := "saves the receipt " + key + " → #" + strconv.Itoa(receipt.TicketID)
		for _, taken := range c.db.receipts(tx) {
			if SameIdentity(taken.Event, receipt.Event) {
				c.say(fmt.Sprintf("%s: unique violation, %s already has a receipt (→ #%d).", what, key, taken.TicketID))
				return struct{}{}, nil, &Error{UniqueViolation, fmt.Sprintf(`duplicate key value violates unique constraint "receipts_identity": (tenant, source, event_id)=(%s, %s, %s) already exists`, receipt.Tenant, receipt.Source, receipt.EventID)}
			}
		}
		w, err := c.db.lock(tx, "receipt:"+lockKey(receipt.Tenant, receipt.Source, receipt.EventID), what+": ")
		if w != nil || err != nil {
			return struct{}{}, w, err
		}
		tx.receipts = append(tx.receipts, receipt)
		c.say(what + c.where() + ".")
		return struct{}{}, nil, nil
	})
	return err
}

// OutboxDraft is an outbox row before it is saved: no id yet, and pending.
type OutboxDraft struct {
	Key, Tenant string
	TicketID    int
	To, Subject string
}

// SaveOutbox inserts a pending outbox row and returns its id. The key is unique, like a receipt's.
func (c *Conn) SaveOutbox(draft OutboxDraft) (int, error) {
	// As in PostgreSQL, the id is drawn first: an insert that then hits the key, or waits, has burned it.
	id := 0
	return run(c, "save-outbox", true, func(tx *transaction) (int, *wait, error) {
		if id == 0 {
			c.db.sequences.outbox++
			id = c.db.sequences.outbox
		}
		what := "saves an outbox row for ticket #" + strconv.Itoa(draft.TicketID) + " (key " + draft.Key + ")"
		for _, taken := range c.db.outbox(tx) {
			if taken.Key == draft.Key {
				c.say(fmt.Sprintf("%s: unique violation, outbox row #%d has that key.", what, taken.ID))
				return 0, nil, &Error{UniqueViolation, fmt.Sprintf(`duplicate key value violates unique constraint "outbox_key": (key)=(%s) already exists`, draft.Key)}
			}
		}
		w, err := c.db.lock(tx, "outbox-key:"+draft.Key, what+": ")
		if w != nil || err != nil {
			return 0, w, err
		}
		row := OutboxRow{ID: id, Key: draft.Key, Tenant: draft.Tenant, TicketID: draft.TicketID, To: draft.To, Subject: draft.Subject, State: Pending}
		tx.outbox = append(tx.outbox, row)
		c.say(what + " as row #" + strconv.Itoa(row.ID) + c.where() + ".")
		return row.ID, nil, nil
	})
}

// PendingOutbox returns the outbox rows not yet sent, oldest first.
func (c *Conn) PendingOutbox() ([]OutboxRow, error) {
	return run(c, "pending-outbox", false, func(tx *transaction) ([]OutboxRow, *wait, error) {
		var rows []OutboxRow
		var ids []string
		for _, row := range c.db.outbox(tx) {
			if row.State == Pending {
				rows = append(rows, row)
			}
		}
		// Oldest first, by id, as PostgreSQL's ORDER BY id reads them, whatever order they were committed in.
		slices.SortFunc(rows, func(a, b OutboxRow) int { return a.ID - b.ID })
		for _, row := range rows {
			ids = append(ids, "#"+strconv.Itoa(row.ID))
		}
		said := "none"
		if len(ids) > 0 {
			said = strings.Join(ids, ", ")
		}
		c.say("reads the pending outbox rows: " + said + ".")
		return rows, nil, nil
	})
}

// MarkSent marks an outbox row sent, and says whether this changed it from pending. It waits on a row that
// another open transaction has marked, then sees that transaction's result.
func (c *Conn) MarkSent(id int) (bool, error) {
	return run(c, "mark-sent", true, func(tx *transaction) (bool, *wait, error) {
		what := "marks outbox row #" + strconv.Itoa(id) + " sent"
		// Like UPDATE … WHERE state = 'pending': a row it can't see, or sees sent, is left alone, unlocked.
		pending := false
		for _, row := range c.db.outbox(tx) {
			pending = pending || (row.ID == id && row.State == Pending)
		}
		if pending {
			w, err := c.db.lock(tx, "outbox-row:"+strconv.Itoa(id), what+": ")
			if w != nil || err != nil {
				return false, w, err
			}
		}
		for _, row := range c.db.outbox(tx) {
			if row.ID != id {
				continue
			}
			if row.State == Sent {
				c.say(what + ": it already was, nothing changes.")
				return false, nil, nil
			}
			tx.sent = append(tx.sent, id)
			c.say(what + c.where() + ".")
			return true, nil, nil
		}
		c.say(what + ": there is no such row, nothing changes.")
		return false, nil, nil
	})
}

// Step runs a step outside the database (see Outside).
func (c *Conn) Step(name string, act func() (any, error)) (any, error) {
	if err := c.turn(Operation{Name: name}); err != nil {
		return nil, err
	}
	result, err := act()
	c.finished(name, err, result)
	return result, err
}

// Close ends the connection: the worker has finished or crashed, and its open transaction rolls back.
func (c *Conn) Close(why string) {
	c.closed = true
	c.tx = nil
	c.db.Disconnect(c.Worker, why)
}

func (c *Conn) turn(op Operation) error {
	if err := c.usable(op.Name); err != nil {
		return err
	}
	c.gate.Turn(c.Worker, op)
	return nil
}

// run is one operation: it waits for its turn, runs in the open transaction or in one of its own, and
// waits again for as long as another open transaction holds what it needs.
func run[T any](c *Conn, name string, writes bool, act func(tx *transaction) (T, *wait, error)) (T, error) {
	var zero T
	for {
		if err := c.turn(Operation{Name: name, Writes: writes, Commits: writes && c.tx == nil}); err != nil {
			return zero, err
		}
		if blocker := c.db.BlockedBy(c.Worker); blocker != "" {
			return zero, c.misuse(fmt.Sprintf("%s would wait for %s's transaction, but nothing else runs: use a scheduler", name, blocker))
		}
		own := c.tx
		if own != nil && own.aborted {
			c.say(fmt.Sprintf("tries to %s, but an earlier error aborted its transaction.", strings.Replace(name, "-", " ", 1)))
			c.finished(name, ErrTransactionAborted, nil)
			return zero, ErrTransactionAborted
		}
		tx := own
		if tx == nil {
			tx = c.db.begin(c.Worker)
		}
		result, w, err := act(tx)
		if err != nil {
			if own != nil {
				own.aborted = true
			} else {
				c.db.rollback(tx)
			}
			c.finished(name, err, nil)
			return zero, err
		}
		if w != nil {
			if own == nil {
				c.db.rollback(tx)
			}
			c.say(fmt.Sprintf("%s%s's open transaction has the same key, so %s waits for it to end.", w.why, w.holder.worker, c.Worker))
			continue
		}
		delete(c.db.waiting, c.Worker)
		if own == nil {
			c.db.commit(tx)
		}
		c.finished(name, nil, result)
		return result, nil
	}
}

func (c *Conn) usable(what string) error {
	if c.closed {
		return c.misuse(what + ": this connection is closed (the worker has finished)")
	}
	return nil
}

func (c *Conn) finished(name string, err error, result any) {
	c.Done = append(c.Done, name)
	var heard string
	var dbErr *Error
	switch {
	case errors.As(err, &dbErr):
		heard = string(dbErr.Code)
	case err != nil:
		heard = "error"
	default:
		heard = heardValue(result)
	}
	c.Heard = append(c.Heard, name+":"+heard)
}

// heardValue is a result as text for the state key: the model's own results said without reflection (an
// exploration hears thousands), each field quoted so that two different results never read the same;
// anything else as JSON.
func heardValue(result any) string {
	switch v := result.(type) {
	case nil:
		return "null"
	case int:
		return strconv.Itoa(v)
	case bool:
		return strconv.FormatBool(v)
	case *handler.Receipt:
		if v == nil {
			return "null"
		}
		return lockKey(v.Tenant, v.Source, v.EventID, v.Subject, strconv.Itoa(v.TicketID))
	case *handler.Ticket:
		if v == nil {
			return "null"
		}
		return lockKey(strconv.Itoa(v.ID), v.Tenant, v.Subject)
	case []OutboxRow:
		// The pending rows a relay read: every field, as StateKey writes them (nil, none pending, as JSON's).
		if v == nil {
			return "null"
		}
		return string(appendOutbox(nil, v))
	}
	data, _ := json.Marshal(result)
	return string(data)
}

func (c *Conn) misuse(message string) error {
	return &Error{Misuse, c.Worker + ": " + message}
}

func (c *Conn) say(text string) {
	c.db.Say(c.Worker, c.Worker+" "+text)
}

func (c *Conn) where() string {
	if c.tx != nil {
		return " in its transaction"
	}
	return ", committed at once"
}

// SameIdentity is the receipts table's unique key, compared field by field. It is the database's own
// rule, not the learner's SameEvent: a wrong SameEvent must fail its tests, not change what is enforced.
func SameIdentity(a, b handler.Webhook) bool {
	return a.Tenant == b.Tenant && a.Source == b.Source && a.EventID == b.EventID
}

// lockKey joins an identity's fields so that no two different identities give the same key: each field
// quoted, so a comma inside one can't pass for the one between them.
func lockKey(fields ...string) string {
	quoted := make([]string, len(fields))
	for i, field := range fields {
		quoted[i] = strconv.Quote(field)
	}
	return strings.Join(quoted, ",")
}
