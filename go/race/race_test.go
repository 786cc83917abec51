package race

import (
	"fmt"
	"testing"

	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
)

// createEveryTime is the first handler (exercise 01) over the database: every delivery saves a ticket.
func createEveryTime(conn database.Connection, event handler.Webhook) (handler.Outcome, error) {
	id, err := conn.SaveTicket(event.Tenant, event.Subject)
	if err != nil {
		return handler.Outcome{}, err
	}
	return handler.Outcome{Kind: "created", TicketID: id}, nil
}

// TestTheFirstHandlerTwoAtOnce pins the lesson's section 09: two workers get the same event at once, and
// create every time makes two tickets, in every interleaving.
func TestTheFirstHandlerTwoAtOnce(t *testing.T) {
	explored, err := scheduler.ExploreAll(sameEvent(createEveryTime, 2), func(run scheduler.Run[handler.Outcome]) string {
		created := 0
		for name, ending := range run.Endings {
			if answerOf(ending, name).Kind == "created" {
				created++
			}
		}
		if n := len(run.DB.Committed().Tickets); n != 2 || created != 2 {
			return fmt.Sprintf("%d tickets and %d workers answered created, not 2 and 2", n, created)
		}
		return ""
	}, scheduler.ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if explored.Complete != 2 {
		t.Errorf("%d complete runs; one save each has two orders", explored.Complete)
	}
	for _, failure := range explored.Failures {
		t.Errorf("%s\n%s", failure.Problem, database.TellTrace(failure.Run.DB.TraceLines()))
	}
}
