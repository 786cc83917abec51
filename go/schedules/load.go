// Package schedules loads the workbook's shared JSON schedules: the very files under schedules/ that the
// TypeScript tests play. Loading is strict: an unknown, missing or mistyped field, or a value that is not
// allowed, is an error that names the file and the field, as the TypeScript loader does.
package schedules

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Named is what every schedule starts with: an optional "$schema" for editors, and its name, which must
// be the file's name. Embed it in a schedule type; the loader fills File.
type Named struct {
	Schema string `json:"$schema,omitempty"`
	Name   string `json:"name"`
	// Order is where the schedule stands in the lesson's telling, when it says; TypeScript lists its
	// tests in this order.
	Order int `json:"order,omitempty"`
	// File is where the schedule came from, relative to the workbook's root: schedules/handler/x.json.
	File string `json:"-"`
}

// ScheduleName is the schedule's name, which is also its file's name.
func (n Named) ScheduleName() string { return n.Name }

// Kind is the schedule's folder under schedules/: handler, race, and so on.
func (n Named) Kind() string { return filepath.Base(filepath.Dir(n.File)) }

func (n *Named) locate(file string) { n.File = file }

// place is where the schedule is told: its Order, or after every schedule that has one.
func (n Named) place() int {
	if n.Order == 0 {
		return math.MaxInt
	}
	return n.Order
}

// Schedule is any type that embeds Named.
type Schedule interface {
	ScheduleName() string
	Kind() string
	locate(file string)
	place() int
}

// Checker is a schedule that checks itself after the strict decoding, for rules a type cannot say
// (one outcome per delivery, say). Return a *FieldError so the message names the field.
type Checker interface {
	Check() error
}

// FieldError is one wrong field of a schedule: where it is (deliveries[1].fault) and what is wrong.
type FieldError struct {
	Field   string
	Problem string
}

func (e *FieldError) Error() string { return where(e.Field) + ": " + e.Problem }

// Error is a schedule file that could not be loaded. Its message starts with the file, then every problem.
type Error struct {
	File     string
	Problems []string
}

func (e *Error) Error() string { return e.File + ": " + strings.Join(e.Problems, "; ") }

// Dir is the workbook's schedules/ folder. From a package folder it walks up to go.mod and reads
// testdata/schedules there: a symbolic link to ../../schedules, the very folder TypeScript reads. Reading
// through a link inside the module matters: go test caches a passing result, and it rechecks only the
// files that a test opened inside the module, so an edited schedule re-runs the tests instead of
// replaying a stale pass. Where the link is missing (a checkout without symbolic links) it falls back
// to the nearest schedules/ folder above, which works, but go test may then cache past an edit.
func Dir() (string, error) {
	start, err := os.Getwd()
	if err != nil {
		return "", err
	}
	isSchedules := func(dir string) bool {
		info, err := os.Stat(filepath.Join(dir, "schema"))
		return err == nil && info.IsDir()
	}
	for dir := start; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if link := filepath.Join(dir, "testdata", "schedules"); isSchedules(link) {
				return link, nil
			}
		}
		if found := filepath.Join(dir, "schedules"); isSchedules(found) {
			return found, nil
		}
		if filepath.Dir(dir) == dir {
			return "", errors.New("no schedules/ folder (with schema/ in it) in the working directory or above it")
		}
	}
}

// Load reads every schedule of one kind (a folder under schedules/), in the lesson's order where a schedule
// gives one ("order") and in file-name order after those, as TypeScript lists them. A test binary reads
// and checks each folder once: the next Load of the same kind gets a copy of the list it made (the schedules
// in it are shared, and read only; a test that changes one uses LoadChanged).
func Load[T any, PT interface {
	*T
	Schedule
}](kind string) ([]T, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	folder := filepath.Join(dir, kind)
	key := loadedKey{folder, reflect.TypeFor[T]()}
	if all, ok := loaded.Load(key); ok {
		return slices.Clone(all.([]T)), nil
	}
	all, err := loadFolder[T, PT](folder, kind)
	if err != nil {
		return nil, err
	}
	loaded.Store(key, all)
	return slices.Clone(all), nil
}

// loaded holds each folder's schedules once read, by folder and the type they were read into.
var loaded sync.Map

type loadedKey struct {
	folder string
	into   reflect.Type
}

func loadFolder[T any, PT interface {
	*T
	Schedule
}](folder, kind string) ([]T, error) {
	entries, err := os.ReadDir(folder)
	if err != nil {
		return nil, fmt.Errorf("schedules of kind %q: %w", kind, err)
	}
	var names []string
	for _, entry := range entries {
		if !entry.IsDir() && strings.HasSuffix(entry.Name(), ".json") {
			names = append(names, entry.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("schedules/%s holds no .json schedule", kind)
	}
	all := make([]T, 0, len(names))
	for _, name := range names {
		schedule, err := LoadFile[T, PT](filepath.Join(folder, name), filepath.ToSlash(filepath.Join("schedules", kind, name)))
		if err != nil {
			return nil, err
		}
		all = append(all, schedule)
	}
	slices.SortStableFunc(all, func(a, b T) int { return cmp.Compare(PT(&a).place(), PT(&b).place()) })
	return all, nil
}

// LoadFile reads one schedule from path; shown is how error messages name the file.
func LoadFile[T any, PT interface {
	*T
	Schedule
}](path, shown string) (T, error) {
	var schedule T
	fail := func(problems ...string) (T, error) { return schedule, &Error{File: shown, Problems: problems} }
	data, err := os.ReadFile(path)
	if err != nil {
		return schedule, err
	}
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return fail(fmt.Sprintf("not valid JSON (%v)", err))
	}
	// First the schema file both languages read, then Go's own types: the first says what is allowed,
	// the second that Go can hold it.
	problems, err := againstSchema(filepath.Base(filepath.Dir(shown)), raw)
	if err != nil {
		return schedule, err
	}
	if len(problems) > 0 {
		return fail(unique(problems)...)
	}
	check(raw, reflect.TypeFor[T](), "", &problems)
	if len(problems) > 0 {
		return fail(problems...)
	}
	// The check above already refused unknown fields; the decoder refuses them again, to be sure.
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(&schedule); err != nil {
		return fail(err.Error())
	}
	PT(&schedule).locate(shown)
	want := strings.TrimSuffix(filepath.Base(path), ".json")
	if got := PT(&schedule).ScheduleName(); got != want {
		return fail(fmt.Sprintf("name: %q must match the file's name", got))
	}
	if checker, ok := any(PT(&schedule)).(Checker); ok {
		if err := checker.Check(); err != nil {
			return fail(err.Error())
		}
	}
	return schedule, nil
}

// unique drops a problem said twice, keeping the first.
func unique(problems []string) []string {
	var kept []string
	for _, problem := range problems {
		if !slices.Contains(kept, problem) {
			kept = append(kept, problem)
		}
	}
	return kept
}
