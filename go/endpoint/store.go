package endpoint

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"workbook/handler"
)

// ErrUniqueViolation is a key (or a receipt) that is already saved.
var ErrUniqueViolation = errors.New("unique violation")

// ErrWorkerDied is what every store call returns once the schedule has crashed the worker.
var ErrWorkerDied = errors.New("the worker died (the schedule crashed it before its commit)")

// ErrStepFailed is the ticket's insert failing, as the schedule's step-fails asks.
var ErrStepFailed = errors.New("saving the ticket failed (the schedule made this step fail)")

// Plan is what the harness does to one request: its fault, and the hold a held request waits in.
//
// Turns: when a held request is let go, the player makes every other request in flight wait its turn
// (WaitTurn), so the one let go runs first and two requests never race on the machine's timing. A request
// waiting its turn takes no step on the database (before each statement, commit and rollback) until the
// player gives it back (YourTurn), once the one let go has answered or waits on a lock.
type Plan struct {
	Fault    Fault
	mu       sync.Mutex
	crashed  bool
	used     bool
	Reached  chan struct{}
	released chan struct{}
	once     sync.Once
	turn     chan struct{} // open while the request waits its turn
	atTurn   bool
}

// NewPlan makes the plan for one request.
func NewPlan(fault Fault) *Plan {
	return &Plan{Fault: fault, Reached: make(chan struct{}), released: make(chan struct{})}
}

// Release lets a held request commit.
func (p *Plan) Release() { p.once.Do(func() { close(p.released) }) }

// Crashed says whether the worker died.
func (p *Plan) Crashed() bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.crashed
}

// WaitTurn makes the request take no step on the database until YourTurn.
func (p *Plan) WaitTurn() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.turn == nil {
		p.turn = make(chan struct{})
	}
}

// YourTurn gives the request back its turn.
func (p *Plan) YourTurn() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.turn != nil {
		close(p.turn)
		p.turn = nil
	}
}

// AtItsTurn says whether the request sits at its turn now: it holds the locks it took, and waits for none.
func (p *Plan) AtItsTurn() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.atTurn
}

// waitItsTurn returns at once, unless the request waits its turn: then once it is given back.
func (p *Plan) waitItsTurn() {
	if p == nil {
		return
	}
	p.mu.Lock()
	turn := p.turn
	p.atTurn = turn != nil
	p.mu.Unlock()
	if turn == nil {
		return
	}
	<-turn
	p.mu.Lock()
	p.atTurn = false
	p.mu.Unlock()
}

// alive waits the request's turn, then says whether the worker died: it comes before every statement.
func (p *Plan) alive() error {
	p.waitItsTurn()
	if p.Crashed() {
		return ErrWorkerDied
	}
	return nil
}

func (p *Plan) beforeCommit() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	if p.crashed {
		p.mu.Unlock()
		return ErrWorkerDied
	}
	if p.used {
		p.mu.Unlock()
		return nil
	}
	switch p.Fault {
	case "before-commit":
		p.used, p.crashed = true, true
		p.mu.Unlock()
		return ErrWorkerDied
	case "held":
		p.used = true
		p.mu.Unlock()
		close(p.Reached)
		<-p.released
		return p.alive()
	}
	p.mu.Unlock()
	return nil
}

func (p *Plan) beforeTicket() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.Fault == "step-fails" && !p.used {
		p.used = true
		return ErrStepFailed
	}
	return nil
}

type planKey struct{}

// WithPlan gives a request's context its plan.
func WithPlan(ctx context.Context, plan *Plan) context.Context {
	return context.WithValue(ctx, planKey{}, plan)
}

func planOf(ctx context.Context) *Plan {
	plan, _ := ctx.Value(planKey{}).(*Plan)
	return plan
}

// SavedResponse is the answer saved with a key: its status and exact body.
type SavedResponse struct {
	Status int
	Body   string
}

// KeyRecord is a saved key: the body's fingerprint, the answer, and when it was saved.
type KeyRecord struct {
	Client      string
	Key         string
	Fingerprint string
	Response    SavedResponse
	CreatedAt   time.Time
}

// StoredReceipt is a webhook's receipt with the time it was received.
type StoredReceipt struct {
	handler.Receipt
	ReceivedAt time.Time
}

// Store is the endpoint's tables, as both routes see them: on PostgreSQL (PostgresStore) or in memory
// (MemoryStore, memory.go), which the crash points, the overlaps and the model-based property explore.
type Store interface {
	// Transaction runs work in one transaction: it commits if work returns nil and rolls back otherwise.
	Transaction(ctx context.Context, work func(tx Tx) error) error
}

// Tx is one transaction of a Store: each method is one statement.
type Tx interface {
	// LockKey tries the lock on a client's key, held to the end of the transaction: false while another open
	// transaction holds it.
	LockKey(client, key string) (bool, error)
	// FindKey reads a client's saved key, or nil.
	FindKey(client, key string) (*KeyRecord, error)
	// SaveKey saves a key's record; ErrUniqueViolation when the key is saved already.
	SaveKey(r KeyRecord) error
	// ForgetKey deletes a client's saved key.
	ForgetKey(client, key string) error
	// CreateTicket saves a ticket under the next number; a rollback gives the number back.
	CreateTicket(tenant, subject string) (int, error)
	// FindReceipt reads an event's receipt, or nil.
	FindReceipt(event handler.Webhook) (*StoredReceipt, error)
	// SaveReceipt saves a receipt; ErrUniqueViolation when the event has one already.
	SaveReceipt(r StoredReceipt) error
	// ForgetReceipt deletes an event's receipt.
	ForgetReceipt(event handler.Webhook) error
}

// PostgresStore is the endpoint's tables in a schema of their own on PostgreSQL.
type PostgresStore struct {
	pool   *pgxpool.Pool
	schema string
}

const tables = `
CREATE TABLE tickets (id integer PRIMARY KEY, tenant text NOT NULL, subject varchar(%[1]d) NOT NULL);
CREATE TABLE ticket_numbers (last integer NOT NULL);
INSERT INTO ticket_numbers VALUES (0);
CREATE TABLE idempotency_keys (client text NOT NULL, key text NOT NULL, fingerprint text NOT NULL,
	status integer NOT NULL, body text NOT NULL, created_at timestamptz NOT NULL, PRIMARY KEY (client, key));
CREATE TABLE receipts (tenant text NOT NULL, source text NOT NULL, event_id text NOT NULL, subject varchar(%[1]d) NOT NULL,
	ticket_id integer NOT NULL, received_at timestamptz NOT NULL, PRIMARY KEY (tenant, source, event_id));`

// OpenStore makes a fresh schema with empty tables on the server at url.
func OpenStore(ctx context.Context, url string, connections int32) (*PostgresStore, error) {
	random := make([]byte, 6)
	_, _ = rand.Read(random)
	schema := "endpoint_go_" + hex.EncodeToString(random)
	setup, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer setup.Close(ctx)
	if _, err := setup.Exec(ctx, fmt.Sprintf("CREATE SCHEMA %s; SET search_path TO %s; %s", schema, schema, fmt.Sprintf(tables, MaxSubjectLength))); err != nil {
		return nil, err
	}
	config, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	config.MaxConns = connections
	config.ConnConfig.RuntimeParams["search_path"] = schema
	config.ConnConfig.RuntimeParams["application_name"] = schema
	pool, err := pgxpool.NewWithConfig(ctx, config)
	if err != nil {
		return nil, err
	}
	return &PostgresStore{pool: pool, schema: schema}, nil
}

// Close drops the schema and closes the pool.
func (s *PostgresStore) Close() {
	_, _ = s.pool.Exec(context.Background(), "DROP SCHEMA "+s.schema+" CASCADE")
	s.pool.Close()
}

// postgresTx is one transaction on PostgreSQL.
type postgresTx struct {
	ctx    context.Context
	tx     pgx.Tx
	schema string
	wrote  bool
}

// Transaction runs work in one transaction: it commits if work returns nil and rolls back otherwise.
func (s *PostgresStore) Transaction(ctx context.Context, work func(tx Tx) error) error {
	plan := planOf(ctx)
	if err := plan.alive(); err != nil {
		return err
	}
	begun, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() {
		plan.waitItsTurn()
		_ = begun.Rollback(context.Background())
	}()
	tx := &postgresTx{ctx: ctx, tx: begun, schema: s.schema}
	if err := work(tx); err != nil {
		return err
	}
	if tx.wrote {
		if err := plan.beforeCommit(); err != nil {
			return err
		}
	}
	plan.waitItsTurn()
	return begun.Commit(ctx)
}

func (t *postgresTx) exec(sql string, args ...any) error {
	if err := planOf(t.ctx).alive(); err != nil {
		return err
	}
	_, err := t.tx.Exec(t.ctx, sql, args...)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return ErrUniqueViolation
	}
	return err
}

func (t *postgresTx) row(sql string, args ...any) (pgx.Row, error) {
	if err := planOf(t.ctx).alive(); err != nil {
		return nil, err
	}
	return t.tx.QueryRow(t.ctx, sql, args...), nil
}

// LockKey tries PostgreSQL's advisory lock on the client's key, held to the end of the transaction: false
// while another open transaction holds it.
func (t *postgresTx) LockKey(client, key string) (bool, error) {
	row, err := t.row("SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0))", t.schema+":"+client+":"+key)
	if err != nil {
		return false, err
	}
	var locked bool
	return locked, row.Scan(&locked)
}

// FindKey reads a client's saved key, or nil.
func (t *postgresTx) FindKey(client, key string) (*KeyRecord, error) {
	row, err := t.row("SELECT fingerprint, status, body, created_at FROM idempotency_keys WHERE client = $1 AND key = $2", client, key)
	if err != nil {
		return nil, err
	}
	record := KeyRecord{Client: client, Key: key}
	err = row.Scan(&record.Fingerprint, &record.Response.Status, &record.Response.Body, &record.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return &record, err
}

// SaveKey saves a key's record; ErrUniqueViolation when the key is saved already.
func (t *postgresTx) SaveKey(r KeyRecord) error {
	t.wrote = true
	return t.exec("INSERT INTO idempotency_keys VALUES ($1, $2, $3, $4, $5, $6)", r.Client, r.Key, r.Fingerprint, r.Response.Status, r.Response.Body, r.CreatedAt)
}

// ForgetKey deletes a client's saved key.
func (t *postgresTx) ForgetKey(client, key string) error {
	t.wrote = true
	return t.exec("DELETE FROM idempotency_keys WHERE client = $1 AND key = $2", client, key)
}

// CreateTicket saves a ticket under the next number; a rollback gives the number back.
func (t *postgresTx) CreateTicket(tenant, subject string) (int, error) {
	t.wrote = true
	if err := planOf(t.ctx).beforeTicket(); err != nil {
		return 0, err
	}
	row, err := t.row("UPDATE ticket_numbers SET last = last + 1 RETURNING last")
	if err != nil {
		return 0, err
	}
	var id int
	if err := row.Scan(&id); err != nil {
		return 0, err
	}
	return id, t.exec("INSERT INTO tickets VALUES ($1, $2, $3)", id, tenant, subject)
}

// FindReceipt reads an event's receipt, or nil.
func (t *postgresTx) FindReceipt(event handler.Webhook) (*StoredReceipt, error) {
	row, err := t.row("SELECT subject, ticket_id, received_at FROM receipts WHERE tenant = $1 AND source = $2 AND event_id = $3",
		event.Tenant, event.Source, event.EventID)
	if err != nil {
		return nil, err
	}
	receipt := StoredReceipt{Receipt: handler.Receipt{Event: event}}
	err = row.Scan(&receipt.Subject, &receipt.TicketID, &receipt.ReceivedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return &receipt, err
}

// SaveReceipt saves a receipt; ErrUniqueViolation when the event has one already.
func (t *postgresTx) SaveReceipt(r StoredReceipt) error {
	t.wrote = true
	return t.exec("INSERT INTO receipts VALUES ($1, $2, $3, $4, $5, $6)", r.Tenant, r.Source, r.EventID, r.Subject, r.TicketID, r.ReceivedAt)
}

// ForgetReceipt deletes an event's receipt.
func (t *postgresTx) ForgetReceipt(event handler.Webhook) error {
	t.wrote = true
	return t.exec("DELETE FROM receipts WHERE tenant = $1 AND source = $2 AND event_id = $3", event.Tenant, event.Source, event.EventID)
}

// Contents is what is committed: tickets by id, keys oldest first, receipts by ticket.
func (s *PostgresStore) Contents(ctx context.Context) (End, error) {
	var end End
	rows, err := s.pool.Query(ctx, "SELECT id, tenant, subject FROM tickets ORDER BY id")
	if err != nil {
		return end, err
	}
	end.Tickets, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (handler.Ticket, error) {
		var t handler.Ticket
		return t, row.Scan(&t.ID, &t.Tenant, &t.Subject)
	})
	if err != nil {
		return end, err
	}
	rows, err = s.pool.Query(ctx, "SELECT client, key, status FROM idempotency_keys ORDER BY created_at, client, key")
	if err != nil {
		return end, err
	}
	end.Keys, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (SavedKey, error) {
		var k SavedKey
		return k, row.Scan(&k.Client, &k.Key, &k.Status)
	})
	if err != nil {
		return end, err
	}
	rows, err = s.pool.Query(ctx, "SELECT tenant, source, event_id, subject, ticket_id FROM receipts ORDER BY ticket_id, tenant, source, event_id")
	if err != nil {
		return end, err
	}
	end.Receipts, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (handler.Receipt, error) {
		var r handler.Receipt
		return r, row.Scan(&r.Tenant, &r.Source, &r.EventID, &r.Subject, &r.TicketID)
	})
	return end, err
}

// WaitingOnLocks counts this store's connections waiting on a lock now.
func (s *PostgresStore) WaitingOnLocks(ctx context.Context) (int, error) {
	var waiting int
	err := s.pool.QueryRow(ctx, "SELECT count(*)::int FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = $1", s.schema).Scan(&waiting)
	return waiting, err
}

// Committed is everything committed, in full, in the order MemoryStore.Committed lists it: the crash points
// compare it before and after a crash.
func (s *PostgresStore) Committed(ctx context.Context) (Rows, error) {
	var all Rows
	end, err := s.Contents(ctx)
	if err != nil {
		return all, err
	}
	all.Tickets = end.Tickets
	rows, err := s.pool.Query(ctx, "SELECT client, key, fingerprint, status, body, created_at FROM idempotency_keys ORDER BY created_at, client, key")
	if err != nil {
		return all, err
	}
	all.Keys, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (KeyRecord, error) {
		var k KeyRecord
		return k, row.Scan(&k.Client, &k.Key, &k.Fingerprint, &k.Response.Status, &k.Response.Body, &k.CreatedAt)
	})
	if err != nil {
		return all, err
	}
	rows, err = s.pool.Query(ctx, "SELECT received_at FROM receipts ORDER BY ticket_id, tenant, source, event_id")
	if err != nil {
		return all, err
	}
	times, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
	for i, receipt := range end.Receipts {
		all.Receipts = append(all.Receipts, StoredReceipt{Receipt: receipt, ReceivedAt: times[i]})
	}
	return all, err
}
