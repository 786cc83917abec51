package endpoint_test

import (
	"os"
	"testing"

	"workbook/database/postgres"
	"workbook/endpoint"
	ticketendpoint "workbook/solutions/06-ticket-endpoint"
)

// The harness's own tests play the solution's routes, plugged in as 06's tests plug in the learner's.
func init() {
	endpoint.UseSolution(endpoint.Code{Tickets: ticketendpoint.Tickets, Webhooks: ticketendpoint.Webhooks})
}

// TestMain keeps one PostgreSQL for the tests here that play on one.
func TestMain(m *testing.M) { os.Exit(postgres.Main(m)) }
