package endpoint

import (
	"testing"

	"workbook/database/postgres"
	"workbook/handler"
	"workbook/schedules"
)

// TestEndpointPlaysTheSchedules plays every schedules/endpoint file over HTTP on PostgreSQL, under each
// policy it names.
func TestEndpointPlaysTheSchedules(t *testing.T) {
	url := postgres.ServerURL(t)
	all, err := schedules.Load[Schedule]("endpoint")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		for _, remember := range s.Remember {
			t.Run(string(remember)+"/"+s.Name, func(t *testing.T) {
				schedules.Playing(t, s, string(remember))
				if problem := judge(s, remember, play(t, s, remember, url)); problem != "" {
					t.Error(problem)
				}
			})
		}
	}
}

// TestWebhooksPlayTheHandlerSchedules sends the nine handler schedules to POST /webhooks over HTTP on
// PostgreSQL, and holds the answers to the receipt-in-commit column, as TypeScript's 06 tests do.
func TestWebhooksPlayTheHandlerSchedules(t *testing.T) {
	url := postgres.ServerURL(t)
	all, err := schedules.Load[handler.Schedule]("handler")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			schedules.Playing(t, s, handler.ReceiptInCommit)
			got, stopped := playWebhooks(t, s, url)
			if stopped != "" {
				t.Fatalf("Schedule %q (%s) over HTTP: %s", s.Name, s.Title, stopped)
			}
			// Judged as the handler schedules judge a handler, in their words.
			if problem := handler.Judge(s, handler.ReceiptInCommit, got); problem != "" {
				t.Errorf("over HTTP, %s", problem)
			}
		})
	}
}
