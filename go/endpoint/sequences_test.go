package endpoint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestAgainRetriesTheRequestBefore holds again to TypeScript's (harness/endpoint/sequences.test.ts): the
// request before, its fields reversed and its failing step gone, or its body changed; now, exactly when the
// retention of its key ends, or twice (a replay half way, then at that end).
func TestAgainRetriesTheRequestBefore(t *testing.T) {
	first := Call{Do: "send", Route: "tickets", Key: "k-1", Body: `{"subject":"Printer on fire","priority":"high"}`, StepFails: true}
	retry := Call{Do: "send", Route: "tickets", Key: "k-1", Body: `{"priority":"high","subject":"Printer on fire"}`}
	other := Call{Do: "send", Route: "tickets", Key: "k-1", Body: `{"subject":"Printer on fire"}`}
	wait := func(minutes int) Call { return Call{Do: "wait", Minutes: minutes} }
	same := func(at string) againDraw { return againDraw{at: at, change: -1} }
	failing := retry
	failing.StepFails = true
	for _, c := range []struct {
		name  string
		steps []Call
		draw  againDraw
		added []Call
	}{
		{"now", []Call{first}, same("now"), []Call{retry}},
		{"at the retention, from the request", []Call{first}, same("at the retention"), []Call{wait(120), retry}},
		{"at the retention, less the wait since", []Call{first, wait(90)}, same("at the retention"), []Call{wait(30), retry}},
		{"once the retention is over, at once", []Call{first, wait(120)}, same("at the retention"), []Call{retry}},
		{"at the retention of the key, from its first request", []Call{first, wait(60), retry}, same("at the retention"), []Call{wait(60), retried(retry)}},
		{"at the retention of the key, from its first request since it expired", []Call{first, wait(130), first, wait(30)}, same("at the retention"), []Call{wait(90), retry}},
		{"twice: a replay half way, then at the retention", []Call{first}, same("twice"), []Call{wait(60), retry, wait(60), retry}},
		{"twice with another body: a replay and the other body half way, the other body at the retention", []Call{first, wait(20)}, againDraw{at: "twice", change: 0}, []Call{wait(50), retry, other, wait(50), other}},
		{"twice, with no time left: at once", []Call{first, wait(119)}, same("twice"), []Call{wait(1), retry}},
		{"another body, now", []Call{first}, againDraw{at: "now", change: 0}, []Call{other}},
		{"at the retention, its insert failing again", []Call{first}, againDraw{at: "at the retention", change: -1, fails: true}, []Call{wait(120), failing}},
		{"nothing, before any request", []Call{wait(5)}, same("at the retention"), nil},
	} {
		if got := again(c.steps, "everything", 2, c.draw); !slices.Equal(got, c.added) {
			t.Errorf("%s: again gave %+v, want %+v", c.name, got, c.added)
		}
	}
	// From the first request the server remembers: a failed insert is forgotten under "successes".
	steps := []Call{first, wait(30), {Do: "send", Route: "tickets", Key: "k-1", Body: first.Body}}
	if got, want := again(steps, "successes", 2, same("at the retention")), []Call{wait(120), retry}; !slices.Equal(got, want) {
		t.Errorf("successes: again gave %+v, want %+v", got, want)
	}
	if got, want := again(steps, "everything", 2, same("at the retention")), []Call{wait(90), retry}; !slices.Equal(got, want) {
		t.Errorf("everything: again gave %+v, want %+v", got, want)
	}
}

// TestChangedSendsAnotherBody holds changed to TypeScript's: a field added, removed or changed (a list, a
// nested field), the subject kept; for an event, another subject.
func TestChangedSendsAnotherBody(t *testing.T) {
	for _, c := range []struct {
		name, body string
		how        int
		want       string
	}{
		{"a field added", `{"subject":"Printer on fire"}`, 2, `{"subject":"Printer on fire","tags":["vip"]}`},
		{"a field removed", `{"priority":"high","subject":"Printer on fire"}`, 0, `{"subject":"Printer on fire"}`},
		{"a field changed", `{"subject":"Printer on fire","priority":"high"}`, 1, `{"subject":"Printer on fire","priority":"low"}`},
		{"a list changed", `{"tags":["vip"],"subject":"Printer on fire"}`, 3, `{"tags":["vip","urgent"],"subject":"Printer on fire"}`},
		{"a nested field changed", `{"subject":"Printer on fire","customer":{"plan":"free"}}`, 5, `{"subject":"Printer on fire","customer":{"plan":"pro"}}`},
		{"a number deep inside changed", `{"customer":{"plan":"pro","since":2019},"subject":"Printer on fire"}`, 7, `{"customer":{"plan":"pro","since":2024},"subject":"Printer on fire"}`},
	} {
		got := changed(Call{Do: "send", Route: "tickets", Key: "k-1", Body: c.body, StepFails: true}, c.how)
		if want := (Call{Do: "send", Route: "tickets", Key: "k-1", Body: c.want}); got != want {
			t.Errorf("%s: changed gave %+v, want %+v", c.name, got, want)
		}
	}
	event := `{"tenant":"acme","source":"helpdesk","eventId":"evt-42","subject":"Printer on fire"}`
	want := `{"tenant":"acme","source":"helpdesk","eventId":"evt-42","subject":"printer on fire"}`
	if got := changed(Call{Do: "send", Route: "webhooks", Body: event}, 1); got.Body != want {
		t.Errorf("another subject for an event: changed gave %s, want %s", got.Body, want)
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

// TestRandomSequencesRetry: the sequences the crash points and the model play hold retries, now, exactly at
// the retention's end and after a replay; and other bodies under a key, a list and a nested field changed.
func TestRandomSequencesRetry(t *testing.T) {
	found := map[string]bool{}
	for seed := range uint64(200) {
		s := randomSequence(rand.New(rand.NewPCG(seed, 0)), 8)
		for i, step := range s.Steps {
			for _, body := range []string{`"tags":["vip","urgent"]`, `"customer":{"plan":"free"}`} {
				found[body] = found[body] || step.Route == "tickets" && strings.Contains(step.Body, body)
			}
			waited := 0
			for j := i - 1; j >= 0; j-- {
				if s.Steps[j].Do == "wait" {
					waited += s.Steps[j].Minutes
					continue
				}
				if step.Do == "send" && step.Body != s.Steps[j].Body && step == retried(s.Steps[j]) {
					replayed := slices.ContainsFunc(s.Steps[:j], func(c Call) bool { return c.Do == "send" && c.Key == step.Key })
					switch {
					case waited == 0:
						found["now"] = true
					case waited == s.RetentionHours*60:
						found["at the retention"] = true
					case replayed:
						found["later, after a request before"] = true
					}
				}
				break
			}
		}
	}
	for _, want := range []string{"now", "at the retention", "later, after a request before", `"tags":["vip","urgent"]`, `"customer":{"plan":"free"}`} {
		if !found[want] {
			t.Errorf("no sequence of 200 has %s", want)
		}
	}
}
