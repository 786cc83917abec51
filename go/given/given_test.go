package given

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestBorrowedInTheWorkbook: no stub and no reference solution of the Go track imports an answer early.
func TestBorrowedInTheWorkbook(t *testing.T) {
	root, err := workbookRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, tree := range []string{"go/exercises", "go/solutions"} {
		for _, id := range []string{"01", "02", "03", "04", "05", "06", "07"} {
			said, err := borrowedIn(root, id, tree)
			if err != nil {
				t.Fatalf("%s, exercise %s: %v", tree, id, err)
			}
			if len(said) > 0 {
				t.Errorf("%s, exercise %s: %v", tree, id, said)
			}
		}
	}
}

// TestBorrowed plays a made-up workbook: exercise 02's file importing the package that holds 02's answer,
// directly or through another package, or only what it may.
func TestBorrowed(t *testing.T) {
	const manifest = `{"exercises": [
		{"id": "02", "folder": "02-x", "goLearnerFiles": ["handler.go"]},
		{"id": "03", "folder": "03-x", "goLearnerFiles": ["atomic.go"]}
	], "given": [{"file": "harness/core/replay.ts", "answers": "02", "from": "03", "go": "go/handler/replay.go"}]}`
	const said = "go/exercises/02-x/handler.go imports exercise 02's answer, handed on from 03: write your own (go/handler/replay.go"
	tests := []struct {
		name    string
		id      string
		file    string
		imports string
		want    []string
	}{
		{"directly", "02", "02-x/handler.go", `import "workbook/handler"`, []string{said + ")"}},
		{"under another name", "02", "02-x/handler.go", `import h "workbook/handler"`, []string{said + ")"}},
		{"through another package", "02", "02-x/handler.go", `import "workbook/race"`, []string{said + ", through workbook/race)"}},
		{"only core", "02", "02-x/handler.go", `import . "workbook/core"`, nil},
		{"in 03, where it is given", "03", "03-x/atomic.go", `import "workbook/handler"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, "exercises/manifest.json", manifest)
			write(t, root, "go/core/core.go", "package core\n")
			write(t, root, "go/handler/replay.go", "package handler\n\nimport \"workbook/core\"\n")
			write(t, root, "go/race/race.go", "package race\n\nimport \"workbook/handler\"\n")
			write(t, root, "go/exercises/"+tt.file, "package x\n\n"+tt.imports+"\n")
			got, err := Borrowed(root, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("exercise %s importing %s:\n got %q\nwant %q", tt.id, tt.imports, got, tt.want)
			}
		})
	}
}

func write(t *testing.T, root, file, text string) {
	t.Helper()
	path := filepath.Join(root, file)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
