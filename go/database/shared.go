package database

import "workbook/handler"

// Connection is one worker's connection, whichever database is behind it: the in-memory Conn, or a real
// PostgreSQL connection (package database/postgres). Handlers take a Connection, so the same code runs on
// both, and the scheduler steps it the same way. Every method but Begin, Log and Close waits for the
// worker's turn first.
type Connection interface {
	// Name is the worker who holds the connection.
	Name() string
	InTransaction() bool
	Begin() error
	Commit() error
	Rollback() error
	FindReceipt(event handler.Webhook) (*handler.Receipt, error)
	FindTicket(id int) (*handler.Ticket, error)
	SaveTicket(tenant, subject string) (int, error)
	SaveReceipt(receipt handler.Receipt) error
	SaveOutbox(draft OutboxDraft) (int, error)
	PendingOutbox() ([]OutboxRow, error)
	MarkSent(id int) (bool, error)
	// Step runs a step outside the database (see Outside).
	Step(name string, act func() (any, error)) (any, error)
	// Log is what the worker has run so far, and what each operation answered: the scheduler reads it for
	// crash points and for the state of a run.
	Log() (done, heard []string)
	// Close ends the connection: the worker has finished or crashed, and its open transaction rolls back.
	Close(why string)
}

// Shared is a database several workers share, as the scheduler sees it: the in-memory Database, or a
// PostgreSQL database (package database/postgres).
type Shared interface {
	// Open connects a worker; gate is the scheduler's.
	Open(worker string, gate Gate) (Connection, error)
	// BlockedBy names the worker whose open transaction this worker waits for, or "".
	BlockedBy(worker string) string
	// StepNow and SetStep are the scheduler's step, which every trace line carries.
	StepNow() int
	SetStep(step int)
	Say(worker, text string)
	// TraceLines is everything said so far.
	TraceLines() []TraceLine
	// Committed is what was committed.
	Committed() Contents
	// StateKey is the state as text, for ExploreAll; only the in-memory database has one.
	StateKey() string
}

// Outside runs a step outside the database (calling a mail provider, say): the scheduler may run others
// first, and a crash can strike right after it, but no transaction rolls it back.
func Outside[T any](c Connection, name string, act func() (T, error)) (T, error) {
	result, err := c.Step(name, func() (any, error) { return act() })
	value, _ := result.(T)
	return value, err
}

// Open connects a worker to the in-memory database; it never fails.
func (db *Database) Open(worker string, gate Gate) (Connection, error) {
	return db.Connect(worker, gate), nil
}

// StepNow is the scheduler's step.
func (db *Database) StepNow() int { return db.Step }

// SetStep sets the scheduler's step.
func (db *Database) SetStep(step int) { db.Step = step }

// TraceLines is everything said so far.
func (db *Database) TraceLines() []TraceLine { return db.Trace }

// Name is the worker who holds the connection.
func (c *Conn) Name() string { return c.Worker }

// Log is what the worker has run so far, and what each operation answered.
func (c *Conn) Log() (done, heard []string) { return c.Done, c.Heard }
