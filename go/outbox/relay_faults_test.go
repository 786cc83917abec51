package outbox_test

import (
	"strings"
	"testing"

	"workbook/database"
	"workbook/outbox"
)

// relayInTransactions sends each row in a transaction of its own, and nothing ends it when the send fails.
func relayInTransactions(db database.Connection, mail outbox.Mail) error {
	rows, err := db.PendingOutbox()
	if err != nil {
		return err
	}
	for _, row := range rows {
		if err := db.Begin(); err != nil {
			return err
		}
		if _, err := mail.Send(outbox.Email{Key: row.Key, To: row.To, TicketID: row.TicketID, Subject: row.Subject}); err != nil {
			return err
		}
		if _, err := db.MarkSent(row.ID); err != nil {
			return err
		}
		if err := db.Commit(); err != nil {
			return err
		}
	}
	return nil
}

func TestARelayRunThatComesBackInsideItsTransaction(t *testing.T) {
	tests := []struct {
		name  string
		plan  []outbox.CallFault
		ended string
		says  []string // "" judged right
	}{
		{
			name:  "a relay that comes back inside its transaction is told so, whatever else it did",
			plan:  []outbox.CallFault{"accepted", "bug", "accepted"},
			ended: "throws the bug, with its transaction still open",
			says: []string{
				"the relay throws the bug, with its transaction still open.",
				"What this usually means: your relay came back with its transaction still open. Usually a return or a throw before commit or rollback",
			},
		},
		{
			name:  "one whose every transaction ends is judged on what it sent and marked",
			plan:  []outbox.CallFault{"accepted", "accepted", "accepted"},
			ended: "finishes",
		},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			ran := outbox.PlayRelayRun(relayInTransactions, test.plan)
			if ran.Ended != test.ended {
				t.Errorf("the run ended %q; want %q", ran.Ended, test.ended)
			}
			told := outbox.JudgeRelayRun(test.plan, ran)
			if len(test.says) == 0 && told != "" {
				t.Errorf("judged wrong:\n%s", told)
			}
			for _, words := range test.says {
				if !strings.Contains(told, words) {
					t.Errorf("the judgment\n%s\nlacks %q", told, words)
				}
			}
		})
	}
}
