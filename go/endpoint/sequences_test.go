package endpoint

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAgainRetriesTheRequestBefore holds again to TypeScript's (harness/endpoint/sequences.test.ts): the
// request before, its fields reversed and its failing step gone, now or exactly when the retention of its
// key ends.
func TestAgainRetriesTheRequestBefore(t *testing.T) {
	first := Call{Do: "send", Route: "tickets", Key: "k-1", Body: `{"subject":"Printer on fire","priority":"high"}`, StepFails: true}
	retry := Call{Do: "send", Route: "tickets", Key: "k-1", Body: `{"priority":"high","subject":"Printer on fire"}`}
	wait := func(minutes int) Call { return Call{Do: "wait", Minutes: minutes} }
	for _, c := range []struct {
		name        string
		steps       []Call
		atRetention bool
		added       []Call
	}{
		{"now", []Call{first}, false, []Call{retry}},
		{"at the retention, from the request", []Call{first}, true, []Call{wait(120), retry}},
		{"at the retention, less the wait since", []Call{first, wait(90)}, true, []Call{wait(30), retry}},
		{"once the retention is over, at once", []Call{first, wait(120)}, true, []Call{retry}},
		{"at the retention of the key, from its first request", []Call{first, wait(60), retry}, true, []Call{wait(60), retried(retry)}},
		{"at the retention of the key, from its first request since it expired", []Call{first, wait(130), first, wait(30)}, true, []Call{wait(90), retry}},
		{"nothing, before any request", []Call{wait(5)}, true, nil},
	} {
		if got := again(c.steps, 2, c.atRetention); !slices.Equal(got, c.added) {
			t.Errorf("%s: again gave %+v, want %+v", c.name, got, c.added)
		}
	}
}

// TestReversedFieldsKeepsEachValueAsWritten: only the order of the fields changes.
func TestReversedFieldsKeepsEachValueAsWritten(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"subject":"a","tags":["vip", "x"]}`, `{"tags":["vip", "x"],"subject":"a"}`},
		{`{"subject":"a"}`, `{"subject":"a"}`},
		{`["not", "an object"]`, `["not", "an object"]`},
		{`{"subject":`, `{"subject":`},
	} {
		if got := reversedFields(c.text); got != c.want {
			t.Errorf("reversedFields(%s) = %s, want %s", c.text, got, c.want)
		}
	}
}

// TestRandomSequencesRetry: the sequences the crash points and the model play hold retries, now and
// exactly at the retention's end.
func TestRandomSequencesRetry(t *testing.T) {
	found := map[string]bool{}
	for seed := range uint64(200) {
		s := randomSequence(rand.New(rand.NewPCG(seed, 0)), 8)
		for i, step := range s.Steps {
			waited := 0
			for j := i - 1; j >= 0; j-- {
				if s.Steps[j].Do == "wait" {
					waited += s.Steps[j].Minutes
					continue
				}
				if step.Do == "send" && step.Body != s.Steps[j].Body && step == retried(s.Steps[j]) {
					switch waited {
					case 0:
						found["now"] = true
					case s.RetentionHours * 60:
						found["at the retention"] = true
					}
				}
				break
			}
		}
	}
	for _, want := range []string{"now", "at the retention"} {
		if !found[want] {
			t.Errorf("no sequence of 200 retries the request before it %s", want)
		}
	}
}
