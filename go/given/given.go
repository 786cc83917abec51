// Package given is the Go side of exercises/manifest.json's given list: the answers the workbook hands on to
// the exercises after the one they answer (go/handler/replay.go is exercise 02's SameEvent and Replay, given
// from 03 on). A Go learner's file of exercise N may not import, directly or through the workbook's other
// packages, the package that holds an answer to N or to a later exercise: its tests would pass on work the
// learner did not do. Each exercise's test calls Check, so go test says so as a failure.
//
//	func TestWritesItsOwn(t *testing.T) { given.Check(t, "02") }
//
// The rule is read per package (Go imports packages, not files), from the files on disk: a file read through
// go test -overlay is checked as it is on disk.
package given

import (
	"encoding/json"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Answer is one entry of the manifest's given list: a file, whose answer it is, from which exercise on it is
// given, and its Go twin.
type Answer struct {
	File    string `json:"file"`
	Answers string `json:"answers"`
	From    string `json:"from"`
	Go      string `json:"go"`
}

type manifest struct {
	Exercises []struct {
		ID             string   `json:"id"`
		Folder         string   `json:"folder"`
		GoLearnerFiles []string `json:"goLearnerFiles"`
	} `json:"exercises"`
	Given []Answer `json:"given"`
}

// Check fails t with one line for each learner file of exercise id that imports an answer not yet given.
func Check(t testing.TB, id string) {
	t.Helper()
	root, err := workbookRoot()
	if err != nil {
		t.Fatal(err)
	}
	said, err := Borrowed(root, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range said {
		t.Error(line)
	}
}

// Borrowed says, for each Go learner file of exercise id in the workbook at root, the answer not yet given
// that it imports: "go/exercises/02-same-event/handler.go imports exercise 02's answer, handed on from 03:
// write your own (go/handler/replay.go)", with the packages it came through.
func Borrowed(root, id string) ([]string, error) {
	return borrowedIn(root, id, "go/exercises")
}

// borrowedIn is Borrowed over the learner files under tree (go/exercises, or go/solutions).
func borrowedIn(root, id, tree string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(root, "exercises", "manifest.json"))
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("exercises/manifest.json: %w", err)
	}
	barred := map[string]Answer{}
	for _, answer := range m.Given {
		if answer.Go != "" && answer.Answers >= id {
			barred["workbook/"+strings.TrimPrefix(path.Dir(answer.Go), "go/")] = answer
		}
	}
	var said []string
	for _, exercise := range m.Exercises {
		if exercise.ID != id {
			continue
		}
		for _, name := range exercise.GoLearnerFiles {
			file := path.Join(tree, exercise.Folder, name)
			imports, err := importsOf(filepath.Join(root, file))
			if err != nil {
				return nil, err
			}
			if chain := reach(root, imports, barred); chain != nil {
				answer := barred[chain[len(chain)-1]]
				via := ""
				if len(chain) > 1 {
					via = ", through " + strings.Join(chain[:len(chain)-1], " → ")
				}
				said = append(said, fmt.Sprintf("%s imports exercise %s's answer, handed on from %s: write your own (%s%s)",
					file, answer.Answers, answer.From, answer.Go, via))
			}
		}
	}
	return said, nil
}

// reach walks the workbook's packages from the imports given, breadth first, and returns the chain of import
// paths to the first barred package it meets, or nil.
func reach(root string, start []string, barred map[string]Answer) []string {
	cameFrom := map[string]string{}
	var queue []string
	for _, p := range start {
		if _, seen := cameFrom[p]; !seen && strings.HasPrefix(p, "workbook/") {
			cameFrom[p] = ""
			queue = append(queue, p)
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if _, ok := barred[p]; ok {
			chain := []string{p}
			for at := cameFrom[p]; at != ""; at = cameFrom[at] {
				chain = append([]string{at}, chain...)
			}
			return chain
		}
		dir := filepath.Join(root, "go", strings.TrimPrefix(p, "workbook/"))
		entries, _ := os.ReadDir(dir)
		for _, entry := range entries {
			name := entry.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			imports, _ := importsOf(filepath.Join(dir, name))
			for _, next := range imports {
				if _, seen := cameFrom[next]; !seen && strings.HasPrefix(next, "workbook/") {
					cameFrom[next] = p
					queue = append(queue, next)
				}
			}
		}
	}
	return nil
}

// importsOf reads a Go file's import paths, and nothing after them. It reads the file's tokens (go/scanner)
// rather than parsing it (go/parser): every exercise's test binary links this package, and the parser was a
// third of what the workbook adds to a trivial test binary, linked again on every go test of the loop.
func importsOf(file string) ([]string, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	r := importReader{file: file}
	r.scanner.Init(token.NewFileSet().AddFile(file, -1, len(src)), src, r.fail, 0)
	r.want(token.PACKAGE)
	r.want(token.IDENT)
	r.want(token.SEMICOLON)
	var paths []string
	for r.next() == token.IMPORT {
		if r.next() != token.LPAREN {
			paths = append(paths, r.spec())
			r.want(token.SEMICOLON)
			continue
		}
		for r.next() != token.RPAREN && r.err == nil {
			if r.tok != token.SEMICOLON {
				paths = append(paths, r.spec())
			}
		}
		r.want(token.SEMICOLON)
	}
	return paths, r.err
}

// importReader walks a file's package clause and import declarations, token by token, keeping the first
// error it meets.
type importReader struct {
	file    string
	scanner scanner.Scanner
	tok     token.Token
	lit     string
	err     error
}

func (r *importReader) fail(pos token.Position, msg string) {
	if r.err == nil {
		r.err = fmt.Errorf("%s: %s", pos, msg)
	}
}

// next reads the next token (an error or the end reads as EOF from then on).
func (r *importReader) next() token.Token {
	if r.err != nil {
		r.tok = token.EOF
		return r.tok
	}
	var pos token.Pos
	pos, r.tok, r.lit = r.scanner.Scan()
	if r.tok == token.ILLEGAL {
		r.fail(token.Position{Filename: r.file, Offset: int(pos) - 1}, "illegal character "+r.lit)
	}
	return r.tok
}

// want reads the next token and fails unless it is tok (a file may end where a semicolon is due).
func (r *importReader) want(tok token.Token) {
	if got := r.next(); got != tok && !(tok == token.SEMICOLON && got == token.EOF) && r.err == nil {
		r.err = fmt.Errorf("%s: expected %s, found %s %s", r.file, tok, got, r.lit)
	}
}

// spec reads one import spec from the token read last: a name, ".", "_" or nothing, then the path.
func (r *importReader) spec() string {
	if r.tok == token.IDENT || r.tok == token.PERIOD {
		r.next()
	}
	path, err := strconv.Unquote(r.lit)
	if r.tok != token.STRING || err != nil {
		r.fail(token.Position{Filename: r.file}, "expected an import path, found "+r.tok.String()+" "+r.lit)
	}
	return path
}

// workbookRoot is the folder above the working directory that holds exercises/manifest.json.
func workbookRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "exercises", "manifest.json")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no exercises/manifest.json above the working directory")
		}
		dir = parent
	}
}
