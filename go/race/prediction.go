package race

import (
	"fmt"
	"slices"
	"strings"
)

// Exercise 03's prediction, as harness/race/prediction.ts is TypeScript's: what the learner guesses
// HandleSeparately leaves when two workers alternate, checked against the schedule that pins it
// (schedules/race/two-workers-alternate.json, the separate column).
//
//	if problem := race.JudgePrediction(Predict(), schedule); problem != "" {
//		t.Fatal(problem)
//	}

// Prediction is the guess: how many tickets and receipts are left, and what B, the second worker, ends with.
type Prediction struct {
	Tickets      int
	Receipts     int
	SecondWorker string // "created", "replayed", "conflict" or "unique-violation"
}

// SecondWorkerChoices are the endings a prediction can name for B.
var SecondWorkerChoices = []string{"created", "replayed", "conflict", "unique-violation"}

// Truth is what the schedule says HandleSeparately does, in the prediction's terms.
func Truth(s Schedule) (Prediction, error) {
	expected := s.Expect.Separate
	if len(expected.Answers) < 2 {
		return Prediction{}, fmt.Errorf("%s: the separate column has no second worker", s.Name)
	}
	second := expected.Answers[1]
	secondWorker := string(second.Kind)
	if second.Kind == "failed" {
		secondWorker = string(second.Error)
	}
	if !slices.Contains(SecondWorkerChoices, secondWorker) {
		return Prediction{}, fmt.Errorf("%s: the second worker's answer %+v is not one the prediction can name", s.Name, second)
	}
	return Prediction{len(expected.Tickets), len(expected.Receipts), secondWorker}, nil
}

// The nudges, one for each part that is off: a question to think about, never the answer.
var nudges = []struct {
	part string
	off  func(guess, truth Prediction) bool
	say  string
}{
	{"Tickets", func(g, t Prediction) bool { return g.Tickets != t.Tickets },
		"Tickets: at step 2, B looks for a receipt. What has A committed by then? And what does B do next, whatever A does later?"},
	{"Receipts", func(g, t Prediction) bool { return g.Receipts != t.Receipts },
		"Receipts: both workers try to save one for the same (tenant, source, event id). What does the unique key let through?"},
	{"SecondWorker", func(g, t Prediction) bool { return g.SecondWorker != t.SecondWorker },
		"SecondWorker: B's last operation is saving its receipt, after A saved the same key. HandleSeparately returns every error it meets. What reaches B's caller?"},
}

// JudgePrediction is "" when the prediction is right; otherwise what to write or to think again about.
func JudgePrediction(guess Prediction, s Schedule) string {
	const file = "go/exercises/03-the-race/prediction.go"
	if !slices.Contains(SecondWorkerChoices, guess.SecondWorker) {
		return fmt.Sprintf("In %s, SecondWorker is one of %q; you wrote %q.", file, SecondWorkerChoices, guess.SecondWorker)
	}
	truth, err := Truth(s)
	if err != nil {
		return err.Error()
	}
	var parts []string
	for _, nudge := range nudges {
		if nudge.off(guess, truth) {
			parts = append(parts, "  - "+nudge.say)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	where := "one place"
	if len(parts) > 1 {
		where = fmt.Sprintf("%d places", len(parts))
	}
	return fmt.Sprintf("Not quite: your prediction (%s, %s, B: %s) is off in %s. Think again about:\n%s\n"+
		"Then change %s and run the test again. (Running it shows the trace once your guess is right.)",
		counted(guess.Tickets, "ticket"), counted(guess.Receipts, "receipt"), guess.SecondWorker, where,
		strings.Join(parts, "\n"), file)
}

// Alternate is the schedule the prediction is about: two workers, one operation each in turn.
func Alternate() (Schedule, error) {
	all, err := LoadSchedules()
	if err != nil {
		return Schedule{}, err
	}
	for _, s := range all {
		if s.Name == "two-workers-alternate" {
			return s, nil
		}
	}
	return Schedule{}, fmt.Errorf("schedules/race has no two-workers-alternate.json")
}

func counted(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
