package handler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workbook/schedules"
)

func problemWith(t *testing.T, name string, change func(s map[string]any)) string {
	t.Helper()
	message := schedules.LoadChanged[Schedule](t, "handler", "lost-acknowledgment", name, change)
	if message == "" {
		t.Fatal("the malformed schedule loaded without complaint")
	}
	return message
}

var at = schedules.At

func loadError(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := schedules.LoadFile[Schedule](path, "schedules/handler/"+name+".json")
	if err == nil {
		t.Fatal("the malformed schedule loaded without complaint")
	}
	return err.Error()
}

func TestLoadingNamesTheFileAndField(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		change func(s map[string]any)
		want   []string
	}{
		{
			"a misspelled field",
			"lost-acknowledgment",
			func(s map[string]any) {
				delivery := at(s, "deliveries", 1)
				delivery["faut"] = delivery["fault"]
				delete(delivery, "fault")
			},
			[]string{"schedules/handler/lost-acknowledgment.json: ", "deliveries[1].faut: not a field here", "deliveries[1].fault: missing"},
		},
		{
			"a fault that is not one of the three",
			"lost-acknowledgment",
			func(s map[string]any) { at(s, "deliveries", 0)["fault"] = "sometimes" },
			[]string{`deliveries[0].fault: must be one of "none", "before-commit", "after-commit"`},
		},
		{
			"a field inside an embedded Webhook",
			"lost-acknowledgment",
			func(s map[string]any) { at(s, "expect", "receipt-in-commit", "receipts", 0)["eventID"] = "evt-42" },
			[]string{"expect.receipt-in-commit.receipts[0].eventID: not a field here"},
		},
		{
			"a string where a number belongs",
			"lost-acknowledgment",
			func(s map[string]any) { at(s, "expect", "create-every-time", "tickets", 0)["id"] = "1" },
			[]string{"expect.create-every-time.tickets[0].id: must be integer"},
		},
		{
			"null where null is not allowed",
			"lost-acknowledgment",
			func(s map[string]any) { at(s, "expect", "create-every-time", "tickets", 0)["id"] = nil },
			[]string{"expect.create-every-time.tickets[0].id: must be integer"},
		},
		{
			"a name that is not the file's name",
			"renamed",
			func(s map[string]any) {},
			[]string{`renamed.json: name: "lost-acknowledgment" must match the file's name`},
		},
		{
			"the wrong number of outcomes",
			"lost-acknowledgment",
			func(s map[string]any) {
				column := at(s, "expect", "receipt-in-commit")
				column["outcomes"] = column["outcomes"].([]any)[:1]
			},
			[]string{"expect.receipt-in-commit.outcomes: 1 outcomes for 2 deliveries"},
		},
		{
			"a created outcome without a ticket",
			"lost-acknowledgment",
			func(s map[string]any) { at(s, "expect", "create-every-time", "outcomes", 1)["ticketId"] = nil },
			[]string{"expect.create-every-time.outcomes[1].ticketId: a created outcome needs a ticketId"},
		},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			message := problemWith(t, test.file, test.change)
			for _, want := range test.want {
				if !strings.Contains(message, want) {
					t.Errorf("the error\n\t%s\ndoes not say\n\t%s", message, want)
				}
			}
		})
	}
}

func TestLoadingSaysWhenTheFileIsNotJSON(t *testing.T) {
	message := loadError(t, "one-delivery", []byte(`{ "name": `))
	if want := "schedules/handler/one-delivery.json: not valid JSON"; !strings.Contains(message, want) {
		t.Errorf("the error\n\t%s\ndoes not say\n\t%s", message, want)
	}
}

// TestTheLessonsNineHandlerSchedulesLoad: nine schedules are the lesson's, with its order; the rest are
// marked beyond it.
func TestTheLessonsNineHandlerSchedulesLoad(t *testing.T) {
	lesson := 0
	for _, s := range loadSchedules(t) {
		if !s.Beyond {
			lesson++
			if s.Order == 0 {
				t.Errorf("%s: one of the lesson's schedules without an order", s.Name)
			}
		}
	}
	if lesson != 9 {
		t.Errorf("loaded %d of the lesson's handler schedules, want 9", lesson)
	}
}
