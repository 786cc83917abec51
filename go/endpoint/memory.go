package endpoint

// The endpoint's store in memory, the Go twin of harness/endpoint/memory-store.ts: the same Store as
// PostgresStore, for exploring every crash point and every overlap of two requests quickly.
//
//	store := NewMemoryStore()                   // empty tables, ticket numbers from 1
//	err := store.Transaction(ctx, work)         // commits if work returns nil, rolls back otherwise
//	rows := store.Committed()                   // tickets, keys and receipts, as committed
//	copy := store.Copy(pause)                   // the committed rows in a store of their own
//
// What it keeps from PostgreSQL at READ COMMITTED: a statement sees what is committed plus its own
// transaction's writes. LockKey is a try-lock held to the transaction's end. Saving a key (or a receipt)
// that is committed fails with ErrUniqueViolation; saving or forgetting one that another open transaction
// saved or forgot waits for that transaction to end. CreateTicket takes the ticket numbers' lock to the end,
// so ids count from 1 with no gaps. After an error inside a transaction, every later statement fails with
// errAborted. pause, when given, is called before every statement and commit: the overlaps (overlaps.go)
// park the request there and pick who goes on. Only one request runs at a time: the overlaps hand turns
// through channels, and every other exploration plays one request after another.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"workbook/handler"
)

// MemoryStep is one step a transaction is about to take: a statement by its method's name, or "commit".
// Owner is whose transaction it is (ownedStore's, 0 otherwise). Blocked says whether a lock another open
// transaction holds keeps it from running now.
type MemoryStep struct {
	Name    string
	Owner   int
	Blocked func() bool
}

// Pause is called before every step of a MemoryStore's transactions.
type Pause func(step MemoryStep)

// errAborted is a statement after an error in the same transaction, as PostgreSQL's 25P02.
var errAborted = errors.New("current transaction is aborted, commands ignored until end of transaction block")

// Rows is everything a store has committed, in full: what the explorations compare.
type Rows struct {
	Tickets  []handler.Ticket
	Keys     []KeyRecord     // oldest first, then by client and key
	Receipts []StoredReceipt // by ticket
}

// MemoryStore is the endpoint's tables in memory.
type MemoryStore struct {
	tickets  []handler.Ticket
	keys     map[string]KeyRecord
	receipts map[string]StoredReceipt
	open     map[*memoryTx]bool
	pause    Pause
}

// NewMemoryStore is empty tables.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{keys: map[string]KeyRecord{}, receipts: map[string]StoredReceipt{}, open: map[*memoryTx]bool{}}
}

// Copy is the committed rows in a store of their own, paused by pause (nil: never).
func (s *MemoryStore) Copy(pause Pause) *MemoryStore {
	copied := NewMemoryStore()
	copied.tickets = slices.Clone(s.tickets)
	for id, record := range s.keys {
		copied.keys[id] = record
	}
	for id, receipt := range s.receipts {
		copied.receipts[id] = receipt
	}
	copied.pause = pause
	return copied
}

// keyID is a key's row: unique per client and key, as PostgreSQL's primary key (client, key).
func keyID(client, key string) string { return fmt.Sprintf("%q %q", client, key) }

func receiptID(event handler.Webhook) string {
	return fmt.Sprintf("%q %q %q", event.Tenant, event.Source, event.EventID)
}

func (s *MemoryStore) heldByAnother(tx *memoryTx, lock string) bool {
	for other := range s.open {
		if other != tx && other.locks[lock] {
			return true
		}
	}
	return false
}

// Transaction runs work in one transaction: it commits if work returns nil and rolls back otherwise.
func (s *MemoryStore) Transaction(ctx context.Context, work func(tx Tx) error) error {
	return s.transaction(0, work)
}

func (s *MemoryStore) transaction(owner int, work func(tx Tx) error) error {
	tx := &memoryTx{store: s, owner: owner, keys: map[string]*KeyRecord{}, receipts: map[string]*StoredReceipt{}, locks: map[string]bool{}}
	s.open[tx] = true
	defer delete(s.open, tx)
	if err := work(tx); err != nil {
		return err
	}
	return tx.commit()
}

// Committed is what is committed, in the order PostgresStore.Committed lists it.
func (s *MemoryStore) Committed(context.Context) (Rows, error) {
	rows := Rows{Tickets: slices.Clone(s.tickets)}
	for _, record := range s.keys {
		rows.Keys = append(rows.Keys, record)
	}
	slices.SortFunc(rows.Keys, func(a, b KeyRecord) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(keyID(a.Client, a.Key), keyID(b.Client, b.Key))
	})
	for _, receipt := range s.receipts {
		rows.Receipts = append(rows.Receipts, receipt)
	}
	slices.SortFunc(rows.Receipts, func(a, b StoredReceipt) int { return a.TicketID - b.TicketID })
	return rows, nil
}

// memoryTx is one open transaction: its own writes (nil: forgotten), its locks, whether an error aborted it.
type memoryTx struct {
	store    *MemoryStore
	owner    int
	keys     map[string]*KeyRecord
	receipts map[string]*StoredReceipt
	tickets  []handler.Ticket
	locks    map[string]bool
	aborted  bool
}

// step runs the statement once nothing blocks it; an error in it aborts the transaction.
func (t *memoryTx) step(name string, locks []string, statement func() error) error {
	blocked := func() bool {
		return slices.ContainsFunc(locks, func(lock string) bool { return t.store.heldByAnother(t, lock) })
	}
	if t.store.pause != nil {
		t.store.pause(MemoryStep{Name: name, Owner: t.owner, Blocked: blocked})
	}
	if t.aborted {
		return errAborted
	}
	if blocked() {
		return fmt.Errorf("%s waits on a lock that nothing will release", name)
	}
	for _, lock := range locks {
		t.locks[lock] = true
	}
	if err := statement(); err != nil {
		t.aborted = true
		return err
	}
	return nil
}

func (t *memoryTx) visibleKey(id string) *KeyRecord {
	if record, ok := t.keys[id]; ok {
		return record
	}
	if record, ok := t.store.keys[id]; ok {
		return &record
	}
	return nil
}

func (t *memoryTx) visibleReceipt(id string) *StoredReceipt {
	if receipt, ok := t.receipts[id]; ok {
		return receipt
	}
	if receipt, ok := t.store.receipts[id]; ok {
		return &receipt
	}
	return nil
}

func (t *memoryTx) LockKey(client, key string) (bool, error) {
	lock := "advisory:" + keyID(client, key)
	locked := false
	err := t.step("LockKey", nil, func() error {
		if locked = !t.store.heldByAnother(t, lock); locked {
			t.locks[lock] = true
		}
		return nil
	})
	return locked, err
}

func (t *memoryTx) FindKey(client, key string) (*KeyRecord, error) {
	var found *KeyRecord
	err := t.step("FindKey", nil, func() error {
		if record := t.visibleKey(keyID(client, key)); record != nil {
			copied := *record
			found = &copied
		}
		return nil
	})
	return found, err
}

func (t *memoryTx) SaveKey(r KeyRecord) error {
	id := keyID(r.Client, r.Key)
	return t.step("SaveKey", []string{"key:" + id}, func() error {
		if t.visibleKey(id) != nil {
			return fmt.Errorf("%w: key %q of client %q is already saved", ErrUniqueViolation, r.Key, r.Client)
		}
		t.keys[id] = &r
		return nil
	})
}

func (t *memoryTx) ForgetKey(client, key string) error {
	id := keyID(client, key)
	return t.step("ForgetKey", []string{"key:" + id}, func() error {
		t.keys[id] = nil
		return nil
	})
}

func (t *memoryTx) CreateTicket(tenant, subject string) (int, error) {
	id := 0
	err := t.step("CreateTicket", []string{"ticket-numbers"}, func() error {
		id = len(t.store.tickets) + len(t.tickets) + 1
		t.tickets = append(t.tickets, handler.Ticket{ID: id, Tenant: tenant, Subject: subject})
		return nil
	})
	return id, err
}

func (t *memoryTx) FindReceipt(event handler.Webhook) (*StoredReceipt, error) {
	var found *StoredReceipt
	err := t.step("FindReceipt", nil, func() error {
		if receipt := t.visibleReceipt(receiptID(event)); receipt != nil {
			copied := *receipt
			// The event as the receipt saved it, as PostgreSQL's row gives it back.
			found = &copied
		}
		return nil
	})
	return found, err
}

func (t *memoryTx) SaveReceipt(r StoredReceipt) error {
	id := receiptID(r.Event)
	return t.step("SaveReceipt", []string{"receipt:" + id}, func() error {
		if t.visibleReceipt(id) != nil {
			return fmt.Errorf("%w: the receipt of %s is already saved", ErrUniqueViolation, handler.SaidIdentity(r.Event))
		}
		t.receipts[id] = &r
		return nil
	})
}

func (t *memoryTx) ForgetReceipt(event handler.Webhook) error {
	id := receiptID(event)
	return t.step("ForgetReceipt", []string{"receipt:" + id}, func() error {
		t.receipts[id] = nil
		return nil
	})
}

func (t *memoryTx) commit() error {
	if t.store.pause != nil {
		t.store.pause(MemoryStep{Name: "commit", Owner: t.owner, Blocked: func() bool { return false }})
	}
	if t.aborted {
		return errAborted
	}
	s := t.store
	s.tickets = append(s.tickets, t.tickets...)
	for id, record := range t.keys {
		if record == nil {
			delete(s.keys, id)
		} else {
			s.keys[id] = *record
		}
	}
	for id, receipt := range t.receipts {
		if receipt == nil {
			delete(s.receipts, id)
		} else {
			s.receipts[id] = *receipt
		}
	}
	return nil
}
