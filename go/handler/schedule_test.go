package handler

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workbook/schedules"
)

// problemWith writes a changed copy of a real schedule under the given name, loads it, and returns
// the loader's error message.
func problemWith(t *testing.T, name string, change func(s map[string]any)) string {
	t.Helper()
	dir, err := schedules.Dir()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "handler", "lost-acknowledgment.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	change(s)
	if data, err = json.Marshal(s); err != nil {
		t.Fatal(err)
	}
	return loadError(t, name, data)
}

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

// at walks a decoded schedule: at(s, "deliveries", 1) is the second delivery.
func at(value any, path ...any) map[string]any {
	for _, step := range path {
		switch step := step.(type) {
		case string:
			value = value.(map[string]any)[step]
		case int:
			value = value.([]any)[step]
		}
	}
	return value.(map[string]any)
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

func TestAllNineHandlerSchedulesLoad(t *testing.T) {
	if all := loadSchedules(t); len(all) != 9 {
		t.Errorf("loaded %d handler schedules, want 9", len(all))
	}
}
