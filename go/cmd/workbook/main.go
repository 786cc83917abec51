// Command workbook is the Go learner's loop, run from go/: which exercises are green, the next hint, and
// a learner file put back as shipped. It reads the same exercises/manifest.json and READMEs as the
// TypeScript commands (npm run progress, hint, reset), the Go hints beside TypeScript's (hints.go.md beside
// hints.md), and keeps what it remembers in the same .learner/ folder.
//
//	go run ./cmd/workbook progress        every Go exercise, red or green, in the manifest's order
//	go run ./cmd/workbook hint 02         02's next hint each time; hint 02 2 the second, hint 02 all every
//	                                      one, hint 02 --again the first again
//	go run ./cmd/workbook reset 02        02's Go learner files as shipped (from learner/shipped/go/); a file
//	                                      you changed only with --yes, your version kept in .learner/before-reset/
//	go run ./cmd/workbook watch 02        go test ./exercises/02-same-event now, and again on every save
//	go run ./cmd/workbook solutions       go test ./... with go/solutions/ read in place of the stubs
//
// One exercise's tests, with their story: go test ./exercises/02-same-event.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// exercise is one entry of exercises/manifest.json, the fields this command reads.
type exercise struct {
	ID             string   `json:"id"`
	Folder         string   `json:"folder"`
	Title          string   `json:"title"`
	GoLearnerFiles []string `json:"goLearnerFiles"`
}

const usage = "usage: go run ./cmd/workbook progress | hint NN [N|all|--again] | reset NN [--yes] | watch NN | solutions [packages]   (from go/)"

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(args []string) error {
	root, err := workbookRoot()
	if err != nil {
		return err
	}
	all, err := goExercises(root)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "progress":
		return progress(root, all)
	case "solutions":
		return solutions(root, all, args[1:])
	}
	if len(args) < 2 {
		return errors.New(usage)
	}
	ex, err := find(all, args[1])
	if err != nil {
		return err
	}
	switch args[0] {
	case "hint":
		which := ""
		if len(args) > 2 {
			which = args[2]
		}
		said, err := hint(root, ex, which)
		if err == nil {
			fmt.Println(said)
		}
		return err
	case "reset":
		said, err := reset(root, ex, slices.Contains(args[2:], "--yes"), time.Now())
		fmt.Print(said)
		return err
	case "watch":
		return watch(root, ex, time.Second/2)
	}
	return errors.New(usage)
}

// workbookRoot is the folder above go/, found from where the command runs (go/ or the workbook's root).
func workbookRoot() (string, error) {
	here, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for _, candidate := range []string{filepath.Dir(here), here} {
		if _, err := os.Stat(filepath.Join(candidate, "exercises", "manifest.json")); err == nil {
			return candidate, nil
		}
	}
	return "", errors.New("run this from the workbook's go/ folder: cd go && go run ./cmd/workbook …")
}

// goExercises reads the manifest: the exercises with a Go track, in its order.
func goExercises(root string) ([]exercise, error) {
	data, err := os.ReadFile(filepath.Join(root, "exercises", "manifest.json"))
	if err != nil {
		return nil, err
	}
	var manifest struct{ Exercises []exercise }
	if err := json.Unmarshal(data, &manifest); err != nil {
		return nil, fmt.Errorf("exercises/manifest.json: %w", err)
	}
	var withGo []exercise
	for _, ex := range manifest.Exercises {
		if len(ex.GoLearnerFiles) > 0 {
			withGo = append(withGo, ex)
		}
	}
	return withGo, nil
}

func find(all []exercise, id string) (exercise, error) {
	var ids []string
	for _, ex := range all {
		if ex.ID == id || ex.Folder == id {
			return ex, nil
		}
		ids = append(ids, ex.ID)
	}
	return exercise{}, fmt.Errorf("no Go exercise %q; the Go track has %s", id, strings.Join(ids, ", "))
}

// progress runs each exercise's tests, one package at a time, and says which are green.
func progress(root string, all []exercise) error {
	fmt.Println("Language: Go (go/exercises/). TypeScript instead: npm run progress, from the workbook's folder.")
	next := ""
	green := 0
	for _, ex := range all {
		test := exec.Command("go", "test", "./exercises/"+ex.Folder)
		test.Dir = filepath.Join(root, "go")
		mark := "✓"
		if test.Run() != nil {
			mark = "✗"
			if next == "" {
				next = ex.Folder
			}
		} else {
			green++
		}
		fmt.Printf("  %s %s · %s\n", mark, ex.ID, ex.Title)
	}
	fmt.Printf("%d of %d green.", green, len(all))
	if next != "" {
		fmt.Printf(" Next: go test ./exercises/%s", next)
	}
	fmt.Println()
	return nil
}

// reset copies each Go learner file back from learner/shipped/go/, the one copy of the stubs as shipped, as
// npm run reset does: a file the learner changed is overwritten only when yes, and kept first in
// .learner/before-reset/<time>/go/.
func reset(root string, ex exercise, yes bool, now time.Time) (string, error) {
	var changed []string
	shipped := map[string][]byte{}
	for _, file := range ex.GoLearnerFiles {
		copy, err := os.ReadFile(filepath.Join(root, "learner", "shipped", "go", ex.Folder, file+".txt"))
		if err != nil {
			return "", err
		}
		shipped[file] = copy
		if mine, err := os.ReadFile(learnerPath(root, ex, file)); err == nil && !bytes.Equal(mine, copy) {
			changed = append(changed, file)
		}
	}
	if len(changed) > 0 && !yes {
		var list []string
		for _, file := range changed {
			list = append(list, "  go/exercises/"+ex.Folder+"/"+file+"  (changed by you)")
		}
		return "", fmt.Errorf("Reset %s · %s would overwrite:\n%s\n\nYour changes are in those files, so nothing was touched. "+
			"To put them back as shipped, run:\n  go run ./cmd/workbook reset %s --yes\nYour current version will be kept in .learner/before-reset/.",
			ex.ID, ex.Title, strings.Join(list, "\n"), ex.ID)
	}
	keep := filepath.Join(root, ".learner", "before-reset", strings.NewReplacer(":", "-", ".", "-").Replace(now.UTC().Format(time.RFC3339Nano)), "go", ex.Folder)
	var said strings.Builder
	for _, file := range ex.GoLearnerFiles {
		if slices.Contains(changed, file) {
			mine, _ := os.ReadFile(learnerPath(root, ex, file))
			if err := os.MkdirAll(keep, 0o755); err != nil {
				return "", err
			}
			if err := os.WriteFile(filepath.Join(keep, file), mine, 0o644); err != nil {
				return "", err
			}
		}
		if err := os.WriteFile(learnerPath(root, ex, file), shipped[file], 0o644); err != nil {
			return "", err
		}
		fmt.Fprintf(&said, "go/exercises/%s/%s is as shipped again.\n", ex.Folder, file)
	}
	if len(changed) > 0 {
		rel, _ := filepath.Rel(root, keep)
		fmt.Fprintf(&said, "Your version is kept in %s/.\n", filepath.ToSlash(rel))
	}
	return said.String(), nil
}

func learnerPath(root string, ex exercise, file string) string {
	return filepath.Join(root, "go", "exercises", ex.Folder, file)
}

// watch runs the exercise's tests now, and again whenever one of its .go files changes (looked at every
// period), until it is stopped (Ctrl-C).
func watch(root string, ex exercise, period time.Duration) error {
	folder := filepath.Join(root, "go", "exercises", ex.Folder)
	last := ""
	for {
		now, err := stamps(folder)
		if err != nil {
			return err
		}
		if now != last {
			last = now
			test := exec.Command("go", "test", "./exercises/"+ex.Folder)
			test.Dir = filepath.Join(root, "go")
			test.Stdout, test.Stderr = os.Stdout, os.Stderr
			fmt.Printf("\n$ go test ./exercises/%s\n", ex.Folder)
			if test.Run() == nil {
				fmt.Printf("%s is green. The next: go run ./cmd/workbook progress\n", ex.ID)
			}
			fmt.Printf("Watching go/exercises/%s/ (Ctrl-C to stop).\n", ex.Folder)
		}
		time.Sleep(period)
	}
}

// stamps is every .go file of a folder with its size and time of change, in one string that changes when any does.
func stamps(folder string) (string, error) {
	entries, err := os.ReadDir(folder)
	if err != nil {
		return "", err
	}
	var said strings.Builder
	for _, entry := range entries {
		if info, err := entry.Info(); err == nil && strings.HasSuffix(entry.Name(), ".go") {
			fmt.Fprintf(&said, "%s %d %d\n", entry.Name(), info.Size(), info.ModTime().UnixNano())
		}
	}
	return said.String(), nil
}

// solutions runs go test (./... unless told) with every Go learner file read from go/solutions/, through
// go test -overlay, as npm run verify does: the solutions pass the very tests the stubs fail.
func solutions(root string, all []exercise, packages []string) error {
	replace := map[string]string{}
	for _, ex := range all {
		for _, file := range ex.GoLearnerFiles {
			replace[filepath.Join(root, "go", "exercises", ex.Folder, file)] = filepath.Join(root, "go", "solutions", ex.Folder, file)
		}
	}
	folder, err := os.MkdirTemp("", "workbook-go-overlay-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(folder)
	overlay := filepath.Join(folder, "overlay.json")
	data, _ := json.Marshal(map[string]any{"Replace": replace})
	if err := os.WriteFile(overlay, data, 0o644); err != nil {
		return err
	}
	if len(packages) == 0 {
		packages = []string{"./..."}
	}
	test := exec.Command("go", append([]string{"test", "-overlay=" + overlay}, packages...)...)
	test.Dir = filepath.Join(root, "go")
	test.Stdout, test.Stderr = os.Stdout, os.Stderr
	return test.Run()
}
