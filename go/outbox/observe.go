package outbox

import (
	"fmt"

	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
)

// Exercise 05's runs as the grader's Go observer (go/grader/observe/05-email-outbox) reports them: the same
// plays the tests make, handed back as data for grader/checks/05-email-outbox.held.ts to judge, as
// grader/inside/05-email-outbox.observe.ts hands back TypeScript's.
//
//	played, err := outbox.PlayForGrader(schedule, outbox.OutboxRelay(handle, relay))   // one schedule
//	left, err := outbox.RoundsForGrader(outbox.OutboxRelay(handle, relay), rounds)    // the property's rounds

// Played is what a schedule left: each delivery's answer, the committed rows, the inbox, the provider's
// calls, and what happened, a line each.
type Played struct {
	Outcomes  []handler.Outcome
	Committed database.Contents
	Inbox     []Email
	Calls     []Call
	Story     string
}

// PlayForGrader plays one outbox schedule on the in-memory model. An error says where the handler or the
// relay stopped the schedule, and what it threw, as the tests say it.
func PlayForGrader(s Schedule, send Sender) (Played, error) {
	got := play(s, send)
	if got.problem != "" {
		return Played{}, fmt.Errorf("%s\n\nWhat happened:\n%s", got.problem, got.story)
	}
	return Played{got.outcomes, got.committed, got.inbox, got.calls, got.story}, nil
}

// CrashPoint is a worker's crash point as harness/scheduler's CrashPoint writes it in JSON.
type CrashPoint struct {
	When      string `json:"when"`
	Operation string `json:"operation"`
	Nth       int    `json:"nth"`
	Count     int    `json:"count"`
}

// RoundWorker is one worker of a round as the grader draws it: a delivery of one of the property's events
// (by its index) or a relay run, and its crash point (nil: it lives).
type RoundWorker struct {
	Does  string      `json:"does"`
	Event int         `json:"event"`
	Crash *CrashPoint `json:"crash"`
}

// Round is one round as harness/outbox/rounds.ts's Round writes it.
type Round struct {
	ProviderDown bool          `json:"providerDown"`
	Workers      []RoundWorker `json:"workers"`
	Picks        []int         `json:"picks"`
}

// RoundsLeft is what the rounds left: the committed rows, the inbox, the workers that failed, and each
// round's story.
type RoundsLeft struct {
	Committed database.Contents
	Inbox     []Email
	Problems  []string
	Stories   []string
}

// RoundsForGrader plays the grader's rounds, then one clean relay run, as the property plays its own.
func RoundsForGrader(send Sender, drawn []Round) (RoundsLeft, error) {
	var rounds []round
	for _, r := range drawn {
		next := round{providerDown: r.ProviderDown, picks: r.Picks}
		for _, w := range r.Workers {
			if w.Does != "deliver" && w.Does != "relay" {
				return RoundsLeft{}, fmt.Errorf("a round's worker does %q, not deliver or relay", w.Does)
			}
			if w.Does == "deliver" && (w.Event < 0 || w.Event >= len(propertyEvents)) {
				return RoundsLeft{}, fmt.Errorf("a round delivers event %d, which the property does not have", w.Event)
			}
			var crash *scheduler.CrashPoint
			if w.Crash != nil {
				crash = &scheduler.CrashPoint{When: w.Crash.When, Operation: w.Crash.Operation, Nth: w.Crash.Nth, Count: w.Crash.Count}
			}
			next.workers = append(next.workers, workerSpec{w.Does == "deliver", w.Event, crash})
		}
		rounds = append(rounds, next)
	}
	left := playRoundsOn(database.New(), send, rounds)
	return RoundsLeft{left.committed, left.inbox, left.problems, left.stories()}, nil
}
