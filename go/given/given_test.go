package given

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
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
	], "given": [
		{"file": "harness/core/replay.ts", "answers": "02", "from": "03", "go": "go/handler/replay.go"},
		{"file": "harness/race/atomic.ts", "answers": "03", "from": "05", "go": "go/race/atomic/atomic.go"}
	]}`
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
		{"a given package inside another", "03", "03-x/atomic.go", `import "workbook/race/atomic"`,
			[]string{"go/exercises/03-x/atomic.go imports exercise 03's answer, handed on from 05: write your own (go/race/atomic/atomic.go)"}},
		{"the package around a given one", "03", "03-x/atomic.go", `import "workbook/race"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, "exercises/manifest.json", manifest)
			write(t, root, "go/core/core.go", "package core\n")
			write(t, root, "go/handler/replay.go", "package handler\n\nimport \"workbook/core\"\n")
			write(t, root, "go/race/race.go", "package race\n\nimport \"workbook/handler\"\n")
			write(t, root, "go/race/atomic/atomic.go", "package atomic\n\nimport \"workbook/handler\"\n")
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

// TestImportsOf: the import reader says what go/parser says, on a table of import shapes and on every Go file
// of the workbook, and fails where go/parser fails.
func TestImportsOf(t *testing.T) {
	files := map[string]string{
		"none":              "package x\n\nfunc f() {}\n",
		"one":               "package x\n\nimport \"fmt\"\n",
		"grouped and named": "package x\n\nimport (\n\t\"fmt\"\n\th \"workbook/handler\"\n\t. \"workbook/core\"\n\t_ \"embed\"\n)\n",
		"on one line":       "package x; import (\"a\"; \"b\"); import \"c\"",
		"raw and commented": "// Package x.\npackage x /* here */\n\nimport `workbook/race` // the race\n\n/* more */ import (\n\t// a comment\n\t\"os\" /* after */\n)\n\nvar v = 1\n",
		"no newline at end": "package x\n\nimport \"fmt\"",
		"a build tag first": "//go:build postgres\n\npackage x\n\nimport \"testing\"\n",
	}
	root, err := workbookRoot()
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{}
	for name, text := range files {
		path := filepath.Join(t.TempDir(), "x.go")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = path
	}
	filepath.WalkDir(filepath.Join(root, "go"), func(path string, entry os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".go") {
			paths[strings.TrimPrefix(path, root+"/")] = path
		}
		return nil
	})
	for name, path := range paths {
		got, err := importsOf(path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if want := parsedImports(t, path); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: imports %q, go/parser says %q", name, got, want)
		}
	}
	for _, broken := range []string{"", "package\n", "package x\nimport fmt\n", "package x\nimport (\"fmt\"\n", "package x\nimport \"fmt\n"} {
		path := filepath.Join(t.TempDir(), "x.go")
		if err := os.WriteFile(path, []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := importsOf(path); err == nil {
			t.Errorf("%q: imports %q and no error; go/parser fails on it", broken, got)
		}
	}
}

// parsedImports is what go/parser reads as path's imports.
func parsedImports(t *testing.T, path string) []string {
	t.Helper()
	parsed, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatalf("go/parser: %v", err)
	}
	var want []string
	for _, spec := range parsed.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		want = append(want, p)
	}
	return want
}
