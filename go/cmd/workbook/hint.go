package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// goHint is one hint of hints.go.md: its "## " heading and the text under it.
type goHint struct{ title, body string }

// heading is a line that starts a hint, as lib/hints.ts reads it.
var heading = regexp.MustCompile(`^## +(.*\S)\s*$`)

// readGoHints reads exercises/NN-…/hints.go.md, the Go track's hints beside TypeScript's hints.md. What comes
// before the first heading is for maintainers only.
func readGoHints(root string, ex exercise) ([]goHint, error) {
	file := filepath.ToSlash(filepath.Join("exercises", ex.Folder, "hints.go.md"))
	data, err := os.ReadFile(filepath.Join(root, file))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("exercise %s has no Go hints yet (%s is missing). Its README is exercises/%s/README.md", ex.ID, file, ex.Folder)
	} else if err != nil {
		return nil, err
	}
	var hints []goHint
	for _, line := range strings.Split(string(data), "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			hints = append(hints, goHint{title: m[1]})
		} else if len(hints) > 0 {
			hints[len(hints)-1].body += line + "\n"
		}
	}
	if len(hints) == 0 {
		return nil, fmt.Errorf("%s has no hints in it (each starts with a \"## \" heading)", file)
	}
	for i := range hints {
		hints[i].body = strings.TrimSpace(hints[i].body)
	}
	return hints, nil
}

// The memory npm run hint keeps, .learner/hints-shown.json: how many hints of each exercise were shown,
// { "01": 2 }. Go's count sits in the same file under its own name, "go:01": Go's answers are not
// TypeScript's, so a learner who read TypeScript's has not read Go's. Each command keeps the other's counts.
func shownFile(root string) string { return filepath.Join(root, ".learner", "hints-shown.json") }

func goKey(ex exercise) string { return "go:" + ex.ID }

// readShown is the whole memory; a damaged file counts as none shown, as in TypeScript.
func readShown(root string) map[string]any {
	shown := map[string]any{}
	data, err := os.ReadFile(shownFile(root))
	if err != nil || json.Unmarshal(data, &shown) != nil || shown == nil {
		return map[string]any{}
	}
	return shown
}

// shownOf is how many of n hints were shown: a count that is not a whole number from 0 to n counts as none.
func shownOf(shown map[string]any, key string, n int) int {
	count, ok := shown[key].(float64)
	if !ok || count != float64(int(count)) || count < 0 {
		return 0
	}
	return min(int(count), n)
}

func saveShown(root string, shown map[string]any) error {
	if err := os.MkdirAll(filepath.Dir(shownFile(root)), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(shown, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(shownFile(root), append(data, '\n'), 0o644)
}

func shownAs(h goHint, number, total int) string {
	body := regexp.MustCompile(`(?m)^(.)`).ReplaceAllString(h.body, "  $1")
	return fmt.Sprintf("Hint %d of %d: %s\n\n%s", number, total, h.title, body)
}

// hint is what go run ./cmd/workbook hint NN [which] says: with no which, the next hint, remembered; "all"
// every hint; "--again" the first again, the others forgotten; a number that hint, and those before it
// counted as shown.
func hint(root string, ex exercise, which string) (string, error) {
	hints, err := readGoHints(root, ex)
	if err != nil {
		return "", err
	}
	shown := readShown(root)
	before := shownOf(shown, goKey(ex), len(hints))
	again := "go run ./cmd/workbook hint " + ex.ID
	var solution []string
	for _, file := range ex.GoLearnerFiles {
		solution = append(solution, "go/solutions/"+ex.Folder+"/"+file)
	}
	stuck := fmt.Sprintf("A working version is in %s: look when you are done, or truly stuck.", strings.Join(solution, ", "))
	switch which {
	case "":
	case "--again":
		before = 0
	case "all":
		before = len(hints)
		shown[goKey(ex)] = len(hints)
		if err := saveShown(root, shown); err != nil {
			return "", err
		}
	default:
		n, err := strconv.Atoi(which)
		if err != nil || n < 1 || n > len(hints) {
			return "", fmt.Errorf("%s has hints 1 to %d: %s N shows hint N, %s all shows every one", ex.ID, len(hints), again, again)
		}
		shown[goKey(ex)] = max(before, n)
		if err := saveShown(root, shown); err != nil {
			return "", err
		}
		said := fmt.Sprintf("%s · %s\n\n%s", ex.ID, ex.Title, shownAs(hints[n-1], n, len(hints)))
		return said, nil
	}
	if before == len(hints) {
		all := make([]string, len(hints))
		for i, h := range hints {
			all[i] = shownAs(h, i+1, len(hints))
		}
		head := fmt.Sprintf("You have seen all %d hints for %s · %s. Here they are again.", len(hints), ex.ID, ex.Title)
		if which == "all" {
			head = fmt.Sprintf("All %d hints for %s · %s.", len(hints), ex.ID, ex.Title)
		}
		return fmt.Sprintf("%s\n\n%s\n\n%s\nTo start these hints over from the first: %s --again", head, strings.Join(all, "\n\n"), stuck, again), nil
	}
	shown[goKey(ex)] = before + 1
	if err := saveShown(root, shown); err != nil {
		return "", err
	}
	then := fmt.Sprintf("%d more: run `%s` again when you want the next one.", len(hints)-before-1, again)
	if before+1 == len(hints) {
		then = "That was the last hint. " + stuck
	}
	return fmt.Sprintf("%s · %s\n\n%s\n\n%s", ex.ID, ex.Title, shownAs(hints[before], before+1, len(hints)), then), nil
}
