package ticketendpoint

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"workbook/core"
	"workbook/database/postgres"
	"workbook/endpoint"
	"workbook/given"
)

// code is your two routes, as the harness plays them: on PostgreSQL over HTTP, and on its in-memory store.
var code = endpoint.Code{Tickets: Tickets, Webhooks: Webhooks}

// written stops a test at the first of the two routes that is still a stub, once, before it plays anything
// or starts PostgreSQL: each route is built, and sent one request, on the in-memory store. Any other panic
// is left to the schedules that meet it, which say at which request.
func written(t *testing.T) {
	t.Helper()
	core.Written(t, func() {
		defer func() {
			if p := recover(); p != nil {
				if _, stub := p.(core.NotWrittenYet); stub {
					panic(p)
				}
			}
		}()
		options := endpoint.Options{Store: endpoint.NewMemoryStore(), Remember: "everything", Retention: 24 * time.Hour, Tenant: "acme", Now: time.Now}
		for _, route := range []struct {
			serve func(endpoint.Options) http.Handler
			path  string
			body  string
		}{
			{code.Tickets, endpoint.Paths["tickets"], `{"subject":"Printer on fire"}`},
			{code.Webhooks, endpoint.Paths["webhooks"], `{"tenant":"acme","source":"helpdesk","eventId":"evt-42","subject":"Cannot sign in"}`},
		} {
			request := httptest.NewRequest(http.MethodPost, route.path, strings.NewReader(route.body))
			request.Header.Set("Content-Type", "application/json")
			request.Header.Set("Authorization", "Bearer "+endpoint.DefaultClient)
			request.Header.Set(endpoint.KeyHeader, "k-1")
			route.serve(options).ServeHTTP(httptest.NewRecorder(), request)
		}
	})
}

// TestEndpointPlaysTheSchedules plays every schedules/endpoint file over HTTP on PostgreSQL, under each
// policy it names, as exercises/06-ticket-endpoint/endpoint.test.ts does in TypeScript.
func TestEndpointPlaysTheSchedules(t *testing.T) {
	written(t)
	endpoint.PlaySchedules(t, code)
}

// TestWebhooksPlayTheHandlerSchedules sends the handler schedules to POST /webhooks over HTTP on PostgreSQL,
// held to the receipt-in-commit column.
func TestWebhooksPlayTheHandlerSchedules(t *testing.T) {
	written(t)
	endpoint.PlayWebhookSchedules(t, code)
}

// TestExplorations holds the routes, on the in-memory store, to every crash point of every request, every
// overlap of two requests with one key or one event, and a model of the contract; ENDPOINT_SEED replays a
// random sequence a story names.
func TestExplorations(t *testing.T) {
	written(t)
	endpoint.Explore(t, code)
}

// TestWritesItsOwn: the workbook hands exercise 02's answers on from exercise 03 (go/handler/replay.go), so
// this exercise may use them; no later exercise's answer may be imported.
func TestWritesItsOwn(t *testing.T) {
	given.Check(t, "06")
}

// TestMain keeps one PostgreSQL for both players, started when the first asks (the stubs start none).
func TestMain(m *testing.M) { os.Exit(postgres.Main(m)) }
