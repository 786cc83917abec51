package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestResetKeepsWhatTheLearnerWrote: reset puts a stub back as npm run reset does: a file as shipped at once,
// a file the learner changed only with --yes, and then their version is kept under .learner/before-reset/.
func TestResetKeepsWhatTheLearnerWrote(t *testing.T) {
	ex := exercise{ID: "01", Folder: "01-first-handler", Title: "The first handler", GoLearnerFiles: []string{"handler.go"}}
	const stub, mine = "package firsthandler // the stub\n", "package firsthandler // mine\n"
	tests := []struct {
		name      string
		file      string
		yes       bool
		refused   string
		left      string
		keptThere bool
	}{
		{"as shipped", stub, false, "", stub, false},
		{"changed, without --yes", mine, false, "go/exercises/01-first-handler/handler.go  (changed by you)", mine, false},
		{"changed, with --yes", mine, true, "", stub, true},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, "learner", "shipped", "go", ex.Folder, "handler.go.txt"), stub)
			path := filepath.Join(root, "go", "exercises", ex.Folder, "handler.go")
			write(t, path, test.file)
			_, err := reset(root, ex, test.yes, time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC))
			if test.refused == "" && err != nil {
				t.Fatalf("reset: %v", err)
			}
			if test.refused != "" && (err == nil || !strings.Contains(err.Error(), test.refused) || !strings.Contains(err.Error(), "reset 01 --yes")) {
				t.Fatalf("reset said %v, want it to name %q and --yes", err, test.refused)
			}
			if left, _ := os.ReadFile(path); string(left) != test.left {
				t.Errorf("handler.go is %q, want %q", left, test.left)
			}
			kept, _ := filepath.Glob(filepath.Join(root, ".learner", "before-reset", "*", "go", ex.Folder, "handler.go"))
			if test.keptThere != (len(kept) == 1) {
				t.Errorf("kept %v, want kept: %v", kept, test.keptThere)
			} else if test.keptThere {
				if said, _ := os.ReadFile(kept[0]); string(said) != mine {
					t.Errorf("kept %q, want the learner's %q", said, mine)
				}
			}
		})
	}
}

// TestWatchSeesASave: a save changes the folder's stamps (its size or its time), which starts the tests again.
func TestWatchSeesASave(t *testing.T) {
	folder := t.TempDir()
	file := filepath.Join(folder, "handler.go")
	write(t, file, "package x\n")
	before, err := stamps(folder)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(folder, "notes.txt"), "not Go")
	if same, _ := stamps(folder); same != before {
		t.Errorf("a file that is not Go changed the stamps")
	}
	write(t, file, "package x // saved\n")
	if after, _ := stamps(folder); after == before {
		t.Errorf("a save did not change the stamps: %q", after)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
