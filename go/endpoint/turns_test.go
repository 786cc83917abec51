package endpoint

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"workbook/database/postgres"
	"workbook/handler"
	"workbook/schedules"
)

// deliveries is two deliveries of one event. The first saves its ticket in a transaction of its own (held at
// that commit), dawdles, then saves its receipt in a second. The second does the same ("ticket first", as
// receipt-saved-after-the-ticket-commits does), or saves its receipt and then its ticket in one transaction
// ("receipt first"). A duplicate receipt answers with the ticket that won.
func deliveries(second string, dawdle time.Duration) Code {
	webhooks := func(o Options) http.Handler {
		arrived := 0
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var event handler.Webhook
			if err := json.NewDecoder(r.Body).Decode(&event); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			arrived++
			first := arrived == 1
			receipt := func(id int) StoredReceipt {
				return StoredReceipt{Receipt: handler.Receipt{Event: event, TicketID: id}, ReceivedAt: o.Now()}
			}
			ctx := r.Context()
			var id int
			var err error
			if first || second == "ticket first" {
				err = o.Store.Transaction(ctx, func(tx Tx) (err error) {
					id, err = tx.CreateTicket(event.Tenant, event.Subject)
					return err
				})
				if first {
					time.Sleep(dawdle)
				}
				if err == nil {
					err = o.Store.Transaction(ctx, func(tx Tx) error { return tx.SaveReceipt(receipt(id)) })
				}
			} else {
				err = o.Store.Transaction(ctx, func(tx Tx) (err error) {
					if err = tx.SaveReceipt(receipt(0)); err != nil {
						return err
					}
					id, err = tx.CreateTicket(event.Tenant, event.Subject)
					return err
				})
			}
			w.Header().Set("Content-Type", "application/json")
			switch {
			case errors.Is(err, ErrUniqueViolation):
				var winner *StoredReceipt
				_ = o.Store.Transaction(ctx, func(tx Tx) (err error) {
					winner, err = tx.FindReceipt(event)
					return err
				})
				w.WriteHeader(http.StatusOK)
				fmt.Fprintf(w, `{"kind":"replayed","ticketId":%d}`, winner.TicketID)
			case err != nil:
				http.Error(w, err.Error(), http.StatusInternalServerError)
			default:
				w.WriteHeader(http.StatusCreated)
				fmt.Fprintf(w, `{"kind":"created","ticketId":%d}`, id)
			}
		})
	}
	return Code{Tickets: func(Options) http.Handler { return http.NotFoundHandler() }, Webhooks: webhooks}
}

// TestAHeldRequestLetGoRunsFirst: the others in flight wait their turn until the one let go has answered or
// waits on a lock, so code that takes the locks wrong ends the same way on every run, however busy the machine.
func TestAHeldRequestLetGoRunsFirst(t *testing.T) {
	all, err := schedules.Load[Schedule]("endpoint")
	if err != nil {
		t.Fatal(err)
	}
	at := slices.IndexFunc(all, func(s Schedule) bool { return s.Name == "two-deliveries-at-once" })
	if at < 0 {
		t.Fatal("no schedule two-deliveries-at-once")
	}
	stores := NewStores(postgres.ServerURL(t))
	t.Cleanup(stores.Close)
	firstWins := []string{`201 {"kind":"created","ticketId":1}`, `200 {"kind":"replayed","ticketId":1}`}
	cases := []struct {
		name   string
		second string
		dawdle time.Duration
		want   []string
	}{
		{"ahead of the one that waited", "ticket first", 0, firstWins},
		{"ahead of the one that waited, dawdling 30ms", "ticket first", 30 * time.Millisecond, firstWins},
		{"ahead of the one that waited, again", "ticket first", 0, firstWins},
		{"ahead of the one that waited, dawdling 30ms again", "ticket first", 30 * time.Millisecond, firstWins},
		// The second's receipt, not yet committed, is what the first's insert waits for: no hang, the second wins.
		{"until it waits on a lock the other holds", "receipt first", 0, []string{`200 {"kind":"replayed","ticketId":0}`, `201 {"kind":"created","ticketId":2}`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := playOn(deliveries(c.second, c.dawdle), all[at], "everything", stores)
			if err != nil {
				t.Fatal(err)
			}
			if p.stopped != "" {
				t.Fatalf("the play stopped at step %d: %s", p.stoppedAt, p.stopped)
			}
			var got []string
			for _, a := range p.answers {
				got = append(got, said(a))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("the answers were %q, want %q", got, c.want)
			}
		})
	}
}
