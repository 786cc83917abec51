package endpoint

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"workbook/database/postgres"
)

// TestWebhookAfterAUniqueViolation covers the webhook route's fallback: after its receipt's insert fails on
// the unique key, it looks for the delivery that committed first. When that receipt can't be found, the
// answer is a 500, as TypeScript's rethrow gives: never the 201 of the transaction that was rolled back.
// A trigger on receipts stands for the other delivery: it raises PostgreSQL's unique_violation (23505)
// without saving a row, so there is no winner to find.
func TestWebhookAfterAUniqueViolation(t *testing.T) {
	url := postgres.ServerURL(t)
	cases := []struct {
		name    string
		setup   string
		status  int
		tickets int
	}{
		{name: "no clash: the ticket is made", status: http.StatusCreated, tickets: 1},
		{
			name: "a clash with no receipt to find: 500, nothing made",
			setup: `CREATE FUNCTION clash() RETURNS trigger LANGUAGE plpgsql AS $$
				BEGIN RAISE EXCEPTION 'a receipt for this event is saved' USING ERRCODE = 'unique_violation'; END $$;
				CREATE TRIGGER clash BEFORE INSERT ON receipts FOR EACH ROW EXECUTE FUNCTION clash();`,
			status:  http.StatusInternalServerError,
			tickets: 0,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			store, err := OpenStore(ctx, url, 2)
			if err != nil {
				t.Fatalf("PostgreSQL at %s: %v", urlVariable, err)
			}
			defer store.Close()
			if c.setup != "" {
				if _, err := store.pool.Exec(ctx, c.setup); err != nil {
					t.Fatal(err)
				}
			}
			now := func() time.Time { return scheduleStart }
			route := solution.Webhooks(Options{Store: store, Remember: "everything", Retention: 24 * time.Hour, Tenant: "acme", Now: now})
			body := `{"tenant":"acme","source":"mail","eventId":"evt-42","subject":"Cannot sign in"}`
			request := httptest.NewRequest(http.MethodPost, Paths["webhooks"], strings.NewReader(body))
			request.Header.Set("Content-Type", "application/json")
			answer := httptest.NewRecorder()
			route.ServeHTTP(answer, request)
			if answer.Code != c.status {
				t.Errorf("answered %d %s, want %d", answer.Code, answer.Body.String(), c.status)
			}
			end, err := store.Contents(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(end.Tickets) != c.tickets {
				t.Errorf("PostgreSQL holds %d tickets, want %d", len(end.Tickets), c.tickets)
			}
		})
	}
}
