package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHintMovesOn: hint NN shows the next hint each time, as npm run hint does, and remembers it in the file
// npm run hint keeps, under Go's own name, leaving TypeScript's counts as they were.
func TestHintMovesOn(t *testing.T) {
	ex := exercise{ID: "01", Folder: "01-first-handler", Title: "The first handler", GoLearnerFiles: []string{"handler.go"}}
	const hints = "<!-- for maintainers -->\n# Hints\n\n## Why?\n\nBecause.\n\n## How?\n\nLike so.\n\n## Answer: this\n\nWrite `Handle`.\n"
	type ask struct {
		which string
		says  []string // what the answer holds
		not   []string // what it must not hold
		after float64  // the Go count remembered afterwards
	}
	tests := []struct {
		name   string
		before string // hints-shown.json before the first ask, "" for none
		asks   []ask
	}{
		{"one more each time, then all again", "", []ask{
			{"", []string{"Hint 1 of 3: Why?", "  Because.", "2 more: run `go run ./cmd/workbook hint 01` again"}, []string{"Hint 2 of"}, 1},
			{"", []string{"Hint 2 of 3: How?", "1 more"}, []string{"Hint 1 of", "Hint 3 of"}, 2},
			{"", []string{"Hint 3 of 3: Answer: this", "That was the last hint", "go/solutions/01-first-handler/handler.go"}, []string{"Hint 2 of"}, 3},
			{"", []string{"You have seen all 3 hints", "Hint 1 of 3: Why?", "Hint 3 of 3", "hint 01 --again"}, nil, 3},
		}},
		{"all shows every hint and counts them shown", "", []ask{
			{"all", []string{"All 3 hints for 01", "Hint 1 of 3: Why?", "Hint 2 of 3: How?", "Hint 3 of 3: Answer: this"}, nil, 3},
			{"", []string{"You have seen all 3 hints"}, nil, 3},
		}},
		{"--again starts over from the first", `{"go:01": 3}`, []ask{
			{"--again", []string{"Hint 1 of 3: Why?"}, []string{"Hint 2 of"}, 1},
			{"", []string{"Hint 2 of 3: How?"}, nil, 2},
		}},
		{"a number shows that hint, and the next after it", "", []ask{
			{"2", []string{"Hint 2 of 3: How?"}, []string{"Hint 1 of", "Hint 3 of"}, 2},
			{"", []string{"Hint 3 of 3"}, nil, 3},
			{"1", []string{"Hint 1 of 3: Why?"}, nil, 3},
		}},
		{"TypeScript's count is not Go's", `{"01": 3}`, []ask{
			{"", []string{"Hint 1 of 3: Why?"}, nil, 1},
		}},
		{"a damaged memory counts as none shown", `{"go:01": `, []ask{
			{"", []string{"Hint 1 of 3: Why?"}, nil, 1},
		}},
		{"a count that is no count counts as none shown", `{"go:01": "two"}`, []ask{
			{"", []string{"Hint 1 of 3: Why?"}, nil, 1},
		}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, "exercises", ex.Folder, "hints.go.md"), hints)
			if test.before != "" {
				write(t, shownFile(root), test.before)
			}
			for i, a := range test.asks {
				said, err := hint(root, ex, a.which)
				if err != nil {
					t.Fatalf("ask %d (hint 01 %s): %v", i+1, a.which, err)
				}
				for _, want := range a.says {
					if !strings.Contains(said, want) {
						t.Errorf("ask %d (hint 01 %s) said:\n%s\nwant it to hold %q", i+1, a.which, said, want)
					}
				}
				for _, unwanted := range a.not {
					if strings.Contains(said, unwanted) {
						t.Errorf("ask %d (hint 01 %s) said:\n%s\nwant it not to hold %q", i+1, a.which, said, unwanted)
					}
				}
				if got := readShown(root)["go:01"]; got != a.after {
					t.Errorf("after ask %d (hint 01 %s) Go's count is %v, want %v", i+1, a.which, got, a.after)
				}
			}
			if test.before == `{"01": 3}` && readShown(root)["01"] != float64(3) {
				t.Errorf("TypeScript's count was lost: %v", readShown(root))
			}
		})
	}
}

// TestHintSaysWhatIsWrong: no hints.go.md, a number out of range, and a file with no heading each say so.
func TestHintSaysWhatIsWrong(t *testing.T) {
	ex := exercise{ID: "02", Folder: "02-same-event", Title: "Same event", GoLearnerFiles: []string{"handler.go"}}
	tests := []struct {
		name, file, which, says string
	}{
		{"no file", "", "", "has no Go hints yet (exercises/02-same-event/hints.go.md is missing)"},
		{"no heading", "just words\n", "", "has no hints in it"},
		{"out of range", "## Why?\nx\n## Answer\ny\n", "3", "02 has hints 1 to 2"},
		{"not a number", "## Why?\nx\n## Answer\ny\n", "first", "02 has hints 1 to 2"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			root := t.TempDir()
			if test.file != "" {
				write(t, filepath.Join(root, "exercises", ex.Folder, "hints.go.md"), test.file)
			}
			if _, err := hint(root, ex, test.which); err == nil || !strings.Contains(err.Error(), test.says) {
				t.Errorf("hint 02 %s said %v, want %q", test.which, err, test.says)
			}
			if _, err := os.Stat(shownFile(root)); err == nil {
				t.Errorf("a refused hint was remembered")
			}
		})
	}
}

// TestShippedGoHintsRead: every Go exercise of the manifest has Go hints the command reads.
func TestShippedGoHintsRead(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	all, err := goExercises(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range all {
		hints, err := readGoHints(root, ex)
		if err != nil || len(hints) < 2 {
			t.Errorf("%s: %d hints, %v", ex.ID, len(hints), err)
		}
	}
}
