package endpoint

import (
	"context"
	"sync"
)

// Stores lends the plays of one test their PostgresStores on one server, each empty when lent, and keeps
// those given back for the next play. Making a store (a schema with its tables, and new server connections
// with their log-ins) costs PostgreSQL about 50 ms of CPU; emptying one costs a few. Plays that run at once
// each hold a store of their own:
//
//	stores := NewStores(postgres.ServerURL(t))
//	t.Cleanup(stores.Close)        // after the test's parallel subtests: every schema dropped
//	store, err := stores.Take(ctx) // an empty store: no tickets, keys or receipts, the next ticket #1
//	defer stores.Give(store)       // once nothing uses it (the play's server closed)
type Stores struct {
	url  string
	lock sync.Mutex
	free []*PostgresStore
	all  []*PostgresStore
}

// connectionsPerStore bounds a play's connections: its overlapping requests, and the reads of its checks.
const connectionsPerStore = 6

// NewStores lends stores on the server at url.
func NewStores(url string) *Stores { return &Stores{url: url} }

// Take lends an empty store: one given back, or a new one.
func (s *Stores) Take(ctx context.Context) (*PostgresStore, error) {
	s.lock.Lock()
	if n := len(s.free); n > 0 {
		store := s.free[n-1]
		s.free = s.free[:n-1]
		s.lock.Unlock()
		return store, nil
	}
	s.lock.Unlock()
	store, err := OpenStore(ctx, s.url, connectionsPerStore)
	if err != nil {
		return nil, err
	}
	s.lock.Lock()
	s.all = append(s.all, store)
	s.lock.Unlock()
	return store, nil
}

// Give takes a store back once its play is over and no request is open on it: emptied, it waits for the
// next play. One that cannot be emptied is closed instead, so no play ever starts on another's rows.
func (s *Stores) Give(store *PostgresStore) {
	if err := store.empty(context.Background()); err != nil {
		store.Close()
		s.lock.Lock()
		defer s.lock.Unlock()
		for i, kept := range s.all {
			if kept == store {
				s.all = append(s.all[:i], s.all[i+1:]...)
				break
			}
		}
		return
	}
	s.lock.Lock()
	defer s.lock.Unlock()
	s.free = append(s.free, store)
}

// Close closes every store it made, each schema dropped.
func (s *Stores) Close() {
	s.lock.Lock()
	defer s.lock.Unlock()
	for _, store := range s.all {
		store.Close()
	}
	s.all, s.free = nil, nil
}

// empty deletes every row and sets the ticket numbers back, as OpenStore leaves a store.
func (s *PostgresStore) empty(ctx context.Context) error {
	_, err := s.pool.Exec(ctx, "DELETE FROM tickets; DELETE FROM idempotency_keys; DELETE FROM receipts; UPDATE ticket_numbers SET last = 0")
	return err
}
