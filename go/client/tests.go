package client

import (
	"slices"
	"strings"
	"testing"

	"workbook/schedules"
)

// Exercise 04's journeys, as harness/client/tests.ts plays TypeScript's: every schedules/client journey,
// the learner's key store playing its own and the given anti-pattern (a new key per attempt) pinned beside
// it, each judged by judge.go.
//
//	code := client.KeyStoreCode{New: New[client.Fields], AfterAnswer: AfterAnswer[client.Fields]}
//	client.PlayJourneys(t, code)
//	client.FormLocksItsFieldsWhileUnsure(t, code)

// PlayJourneys plays every journey, one subtest each, grouped by the client that plays it.
func PlayJourneys(t *testing.T, code KeyStoreCode) {
	t.Helper()
	all, err := LoadJourneys()
	if err != nil {
		t.Fatal(err)
	}
	for _, group := range []struct {
		name   string
		client ClientName
	}{
		{"the journeys, with your key store", "key-store"},
		{"the anti-pattern, pinned: a given client that makes a new key per attempt", "new-key-per-attempt"},
	} {
		t.Run(group.name, func(t *testing.T) {
			for _, j := range all {
				if j.Client != group.client {
					continue
				}
				t.Run(j.Name, func(t *testing.T) {
					schedules.Playing(t, j, "")
					if problem := judge(j, play(j, code)); problem != "" {
						t.Error(problem)
					}
				})
			}
		})
	}
}

// FormLocksItsFieldsWhileUnsure: train-reload's edit comes while the outcome is unknown, so the form refuses
// it and the retry sends what was sent; a journey that says otherwise fails, naming the step.
func FormLocksItsFieldsWhileUnsure(t *testing.T, code KeyStoreCode) {
	t.Helper()
	all, err := LoadJourneys()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range all {
		if j.Name != "train-reload" {
			continue
		}
		got := play(j, code)
		if len(got.steps) < 4 || len(got.requests) < 2 || !got.steps[3].locked || got.requests[1].body["subject"] != "Cannot sign in" {
			t.Errorf("Journey %q: step 4's edit should be refused while the form is unsure, and request 2 should send the first body again", j.Name)
			return
		}
		unlocked := j
		unlocked.Steps = slices.Clone(j.Steps)
		unlocked.Steps[3].Locked = nil
		if problem := judge(unlocked, play(unlocked, code)); !strings.Contains(problem, "step 4") || !strings.Contains(problem, "the form refused this edit") {
			t.Errorf("a journey expecting the edit taken was judged:\n%s", problem)
		}
		return
	}
	t.Fatal("no train-reload journey")
}
