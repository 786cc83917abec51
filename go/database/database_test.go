package database

import (
	"testing"

	"workbook/handler"
)

// TestReceiptKeyComparesTheFields: the unique key and the lookup hold the three fields apart, so
// separators or case inside them never make two events one.
func TestReceiptKeyComparesTheFields(t *testing.T) {
	evt42 := handler.Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}
	with := func(tenant, source, eventID string) handler.Webhook {
		w := evt42
		w.Tenant, w.Source, w.EventID = tenant, source, eventID
		return w
	}
	pairs := []struct {
		name          string
		first, second handler.Webhook
	}{
		{"a slash moved from tenant to source", with("a/b", "c", "evt-1"), with("a", "b/c", "evt-1")},
		{"a slash moved from source to event id", with("acme", "help", "desk/evt-42"), with("acme", "help/desk", "evt-42")},
		{"an empty field", with("", "x", "y"), with("x", "", "y")},
		{"a JSON-looking field", with(`a","b`, "c", "d"), with("a", `b","c`, "d")},
		{"case", with("acme", "helpdesk", "EVT-42"), with("acme", "helpdesk", "evt-42")},
	}
	for _, pair := range pairs {
		t.Run(pair.name, func(t *testing.T) {
			conn := New().Connect("A", nil)
			if err := conn.SaveReceipt(handler.Receipt{Event: pair.first, TicketID: 1}); err != nil {
				t.Fatal(err)
			}
			if found, err := conn.FindReceipt(pair.second); err != nil || found != nil {
				t.Fatalf("FindReceipt(%+v) = %+v, %v; want no receipt: it is another event", pair.second, found, err)
			}
			if err := conn.SaveReceipt(handler.Receipt{Event: pair.second, TicketID: 2}); err != nil {
				t.Fatalf("SaveReceipt(%+v): %v; want it saved: it is another event", pair.second, err)
			}
			if err := conn.SaveReceipt(handler.Receipt{Event: pair.second, TicketID: 3}); err == nil {
				t.Fatalf("SaveReceipt(%+v) a second time succeeded; want a unique violation", pair.second)
			}
			if found, _ := conn.FindReceipt(pair.first); found == nil || found.TicketID != 1 {
				t.Fatalf("FindReceipt(%+v) = %+v; want the receipt for ticket 1", pair.first, found)
			}
		})
	}
}

// TestTellTrace: a trace told one sentence a line, its step's number right-aligned in six columns, "start"
// before the first step, and no number again for the other lines of one step.
func TestTellTrace(t *testing.T) {
	tests := []struct {
		name  string
		trace []TraceLine
		want  string
	}{
		{"nothing said", nil, ""},
		{"before the first step", []TraceLine{{0, "A", "A connects."}}, " start A connects."},
		{
			"lines of one step share its number",
			[]TraceLine{{0, "A", "A connects."}, {1, "A", "A begins."}, {1, "B", "B waits."}, {12, "B", "B commits."}, {123456, "A", "A ends."}},
			" start A connects.\n    1. A begins.\n       B waits.\n   12. B commits.\n123456. A ends.",
		},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			if got := TellTrace(test.trace); got != test.want {
				t.Errorf("TellTrace(%+v) =\n%q\nwant\n%q", test.trace, got, test.want)
			}
		})
	}
}
