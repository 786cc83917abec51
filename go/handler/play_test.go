package handler

import (
	"slices"
	"strings"
	"testing"

	"workbook/schedules"
)

// TestHandlersPlayTheSchedules plays every schedules/handler file against both handlers, each held to
// its own column of expectations. A failure names the schedule, the delivery and the difference.
func TestHandlersPlayTheSchedules(t *testing.T) {
	handlers := []struct {
		column string
		make   func() Handler
	}{
		{CreateEveryTime, func() Handler { return &TicketHandler{} }},
		{ReceiptInCommit, func() Handler { return &ReceiptHandler{} }},
	}
	all := loadSchedules(t)
	for _, handler := range handlers {
		t.Run(handler.column, func(t *testing.T) {
			for _, s := range all {
				t.Run(s.Name, func(t *testing.T) {
					schedules.Playing(t, s, handler.column)
					if problem := Judge(s, handler.column, Play(s, handler.make())); problem != "" {
						t.Error(problem)
					}
				})
			}
		})
	}
}

// joinedIdentity is ReceiptHandler with the mistake of the wrong solution joined-identity: tenant, source
// and event id joined into one key with a separator.
type joinedIdentity struct {
	separator string
	db        Database
}

func (h *joinedIdentity) key(w Webhook) string {
	return strings.Join([]string{w.Tenant, w.Source, w.EventID}, h.separator)
}

func (h *joinedIdentity) Handle(event Webhook, fault Fault) Outcome {
	staged := copyDatabase(h.db)
	var outcome Outcome
	seen := false
	for _, receipt := range h.db.Receipts {
		if h.key(receipt.Webhook) == h.key(event) {
			outcome, seen = Replay(receipt, event), true
			break
		}
	}
	if !seen {
		ticketID := len(staged.Tickets) + 1
		staged.Tickets = append(staged.Tickets, Ticket{ID: ticketID, Tenant: event.Tenant, Subject: event.Subject})
		staged.Receipts = append(staged.Receipts, Receipt{Webhook: event, TicketID: ticketID})
		outcome = Outcome{"created", ticketID}
	}
	if fault == BeforeCommit {
		return Crashed
	}
	h.db = staged
	if fault == AfterCommit {
		return Crashed
	}
	return outcome
}

func (h *joinedIdentity) Snapshot() Database { return copyDatabase(h.db) }

// commitsBeforeItDies is ReceiptHandler with its writes committed even when the worker dies before its
// commit: a crash that leaves something behind.
type commitsBeforeItDies struct{ ReceiptHandler }

func (h *commitsBeforeItDies) Handle(event Webhook, fault Fault) Outcome {
	if fault == BeforeCommit {
		fault = AfterCommit
	}
	return h.ReceiptHandler.Handle(event, fault)
}

// TestTheStoryOfAReplayWhereATicketWasExpected: a handler whose identity is one joined string, on the
// look-alike schedules with each separator they try, is told it took a new event for one it had seen, the
// event printed so that it reads apart from the one it was taken for, and never a crash: none of these
// deliveries crashes. A crash is named only where an earlier delivery of the same event really crashed
// before its commit.
func TestTheStoryOfAReplayWhereATicketWasExpected(t *testing.T) {
	const (
		newEvent = "What this usually means: this is a new event, taken for one your handler had seen. The identity is tenant, source and event id, all three, compared one by one."
		crash    = "What this usually means: your handler kept something from a delivery whose worker died before its commit."
	)
	joined := func(separator string) Handler { return &joinedIdentity{separator: separator} }
	tests := []struct {
		name, schedule string
		handler        Handler
		says, never    []string
	}{
		{`joined with ":"`, "separators-inside-fields", joined(":"),
			[]string{"delivery 2 (a/b:c/evt-1): expected created #2, the handler replayed #1.", newEvent}, []string{crash, " again"}},
		{`joined with "-"`, "separators-of-every-kind", joined("-"),
			[]string{"delivery 2 (a/b-c/evt-1): expected created #2, the handler replayed #1.", newEvent}, []string{crash, " again"}},
		{`joined with "|"`, "separators-of-every-kind", joined("|"),
			[]string{"delivery 4 (a/b|c/evt-1): expected created #4, the handler replayed #3.", newEvent}, []string{crash, " again"}},
		{`joined with "/"`, "separators-of-every-kind", joined("/"),
			[]string{`delivery 6 ("a"/"b/c"/"evt-1"): expected created #6, the handler replayed #5.`, newEvent,
				`"a/b"/"c"/"evt-1" "Printer on fire" → #5`, `"a"/"b/c"/"evt-1" "Printer on fire" → #6`}, []string{crash, " again"}},
		{"joined with nothing between", "separators-of-every-kind", joined(""),
			[]string{"delivery 8 (a/bc/evt-1): expected created #8, the handler replayed #7.", newEvent}, []string{crash, " again"}},
		{"a crash that left its writes behind", "crash-before-commit", &commitsBeforeItDies{},
			[]string{crash}, []string{newEvent}},
	}
	all := loadSchedules(t)
	for _, test := range tests {
		t.Run(test.schedule+", "+test.name, func(t *testing.T) {
			i := slices.IndexFunc(all, func(s Schedule) bool { return s.Name == test.schedule })
			if i < 0 {
				t.Fatalf("no schedule %q", test.schedule)
			}
			story := Judge(all[i], ReceiptInCommit, Play(all[i], test.handler))
			for _, want := range test.says {
				if !strings.Contains(story, want) {
					t.Errorf("the story does not say %q:\n%s", want, story)
				}
			}
			for _, wrong := range test.never {
				if strings.Contains(story, wrong) {
					t.Errorf("the story says %q:\n%s", wrong, story)
				}
			}
		})
	}
}
