package schedules

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// PlaysPrefix starts the line that Playing logs. npm run verify reads these lines from go test -json
// and checks that Go plays exactly the schedules that TypeScript plays.
const PlaysPrefix = "plays "

// Playing marks the running test as playing schedule s, in the role as (a column of its expectations,
// like "receipt-in-commit"; empty when the schedule has only one). Call it first in each subtest.
func Playing(t testing.TB, s interface {
	Kind() string
	ScheduleName() string
}, as string) {
	t.Helper()
	line := PlaysPrefix + s.Kind() + "/" + s.ScheduleName()
	if as != "" {
		line += " as " + as
	}
	t.Log(line)
}

// Row is one labelled block of a side-by-side report: what the schedule expects and what the code did.
type Row struct {
	Label    string
	Expected []string
	Actual   []string
}

// MessageWidth is the widest a failure message's table may be, as harness/core/report.ts's messageWidth: the
// learner's screen of 100 columns, less the two spaces the loop indents a failure's story by.
const MessageWidth = 100 - 2

// SideBySide prints rows in two columns, marking with ≠ each line where the code did something else: the
// twin of harness/core/report.ts's sideBySide, word for word. When the two columns would not fit in
// MessageWidth, each row shows the expected line with the code's just under it, where they differ. Two
// lines that differ only in spaces or characters that print as nothing show them (unseen.go).
func SideBySide(given []Row) string {
	rows, marked := showUnseen(given)
	labelWidth, left, right := 0, 12, 0
	for _, row := range rows {
		labelWidth = max(labelWidth, len([]rune(row.Label)))
		for _, line := range row.Expected {
			left = max(left, len([]rune(line)))
		}
		for _, line := range row.Actual {
			right = max(right, len([]rune(line)))
		}
	}
	labelWidth += 3
	left += 3
	stacked := 2+labelWidth+left+right > MessageWidth
	header := "  " + pad("", labelWidth) + pad("expected", left) + "your code"
	if stacked {
		// Stacked, "your code" is a label too, with two spaces after it as the others have.
		labelWidth = max(labelWidth, len("your code")+2)
		header = "  " + pad("", labelWidth) + "expected; where it differs (≠), your code on the line under it"
	}
	lines := []string{header}
	for _, row := range rows {
		height := max(len(row.Expected), len(row.Actual), 1)
		for i := range height {
			label, expected, actual := "", lineAt(row.Expected, i), lineAt(row.Actual, i)
			if i == 0 {
				label = row.Label
			}
			mark := " "
			if (i < len(row.Expected)) != (i < len(row.Actual)) || (i < len(row.Expected) && expected != actual) {
				mark = "≠"
			}
			if !stacked {
				lines = append(lines, strings.TrimRight(mark+" "+pad(label, labelWidth)+pad(expected, left)+actual, " "))
				continue
			}
			lines = append(lines, mark+" "+pad(label, labelWidth)+orNone(expected))
			if mark != " " {
				lines = append(lines, "  "+pad("your code", labelWidth)+orNone(actual))
			}
		}
	}
	if marked {
		lines = append(lines, "  "+UnseenLegend)
	}
	return strings.Join(lines, "\n")
}

func orNone(line string) string {
	if line == "" {
		return "(none)"
	}
	return line
}

func lineAt(lines []string, i int) string {
	switch {
	case i < len(lines):
		return lines[i]
	case i == 0:
		return "(none)"
	default:
		return ""
	}
}

func pad(text string, width int) string {
	if n := width - len([]rune(text)); n > 0 {
		return text + strings.Repeat(" ", n)
	}
	return text
}

// LoadChanged writes a changed copy of the real schedule kind/from under the file name name, loads it,
// and returns the loader's error ("" if it loaded): for tests that a kind's loader names file and field.
// change gets the decoded JSON; At walks into it.
func LoadChanged[T any, PT interface {
	*T
	Schedule
}](t testing.TB, kind, from, name string, change func(s map[string]any)) string {
	t.Helper()
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, kind, from+".json"))
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
	path := filepath.Join(t.TempDir(), name+".json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile[T, PT](path, "schedules/"+kind+"/"+name+".json"); err != nil {
		return err.Error()
	}
	return ""
}

// At walks decoded JSON: At(s, "steps", 1) is the second step. A step that isn't there panics, which
// fails the test that asked.
func At(value any, path ...any) map[string]any {
	for _, step := range path {
		switch step := step.(type) {
		case string:
			object, ok := value.(map[string]any)
			if !ok {
				panic(fmt.Sprintf("schedules.At: no field %q in %v", step, path))
			}
			value = object[step]
		case int:
			items, ok := value.([]any)
			if !ok || step >= len(items) {
				panic(fmt.Sprintf("schedules.At: no item %d in %v", step, path))
			}
			value = items[step]
		}
	}
	object, ok := value.(map[string]any)
	if !ok {
		panic(fmt.Sprintf("schedules.At: %v is not an object", path))
	}
	return object
}
