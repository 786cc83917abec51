package endpoint

import (
	"context"
	"errors"
	"testing"
	"time"

	"workbook/database/postgres"
	"workbook/handler"
)

// TestStoresLendEmptyStores: a store given back is lent again, holding nothing of the play before it, and
// its next ticket is #1 again, as a new one's is; two plays at once hold two stores.
func TestStoresLendEmptyStores(t *testing.T) {
	ctx := context.Background()
	stores := NewStores(postgres.ServerURL(t))
	t.Cleanup(stores.Close)
	first, err := stores.Take(ctx)
	if err != nil {
		t.Fatal(err)
	}
	write := func(store *PostgresStore) int {
		var id int
		err := store.Transaction(ctx, func(tx Tx) error {
			if id, err = tx.CreateTicket("acme", "Cannot sign in"); err != nil {
				return err
			}
			event := handler.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}
			return errors.Join(
				tx.SaveKey(KeyRecord{Client: DefaultClient, Key: "k-1", Fingerprint: "f", Response: SavedResponse{Status: 201, Body: `{"id":1}`}, CreatedAt: time.Now()}),
				tx.SaveReceipt(StoredReceipt{Receipt: handler.Receipt{Event: event, TicketID: id}, ReceivedAt: time.Now()}),
			)
		})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	write(first)
	other, err := stores.Take(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if other == first {
		t.Fatal("a store still in use was lent to another play")
	}
	stores.Give(other)
	stores.Give(first)
	again, err := stores.Take(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if again != first && again != other {
		t.Errorf("a store was made while two given back were free")
	}
	rows, err := again.Committed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows.Tickets)+len(rows.Keys)+len(rows.Receipts) != 0 {
		t.Errorf("a store lent again still holds the play before it: %+v", rows)
	}
	if id := write(again); id != 1 {
		t.Errorf("the first ticket in a store lent again is #%d, want #1 (as in a new store)", id)
	}
}
