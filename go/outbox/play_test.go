package outbox

import (
	"testing"

	"workbook/database"
	"workbook/handler"
	"workbook/schedules"
)

// senders are the two columns of an outbox schedule: the outbox with its relay, and the send-inside
// anti-pattern with none.
var senders = []sender{
	{OutboxRelayColumn, func(conn database.Connection, event handler.Webhook, _ Mail) (handler.Outcome, error) {
		return Handle(conn, event)
	}, Relay},
	{SendInsideColumn, SendInside, nil},
}

// TestOutboxSchedules plays every schedules/outbox file with the outbox and its relay, and with the
// send-inside anti-pattern, each held to its own column.
func TestOutboxSchedules(t *testing.T) {
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	for _, send := range senders {
		t.Run(send.column, func(t *testing.T) {
			for _, s := range all {
				t.Run(s.Name, func(t *testing.T) {
					schedules.Playing(t, s, send.column)
					if problem := judge(s, send.column, play(s, send)); problem != "" {
						t.Error(problem)
					}
				})
			}
		})
	}
}
