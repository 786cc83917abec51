package endpoint

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"workbook/core"
)

// TestForGraderStopsAtTheStubbedRouteOnly: a route still the stub panics at its own first request, and the
// other route is built and answers, as TypeScript's stubs throw only when called.
func TestForGraderStopsAtTheStubbedRouteOnly(t *testing.T) {
	halfDone := ForGrader(Code{
		Tickets:  solution.Tickets,
		Webhooks: func(Options) http.Handler { panic(core.Todo("Webhooks", "06-ticket-endpoint/endpoint.go")) },
	})
	s := Sequence{Remember: "everything", RetentionHours: 24, Steps: []Call{
		ticketCall(`{"subject":"Printer on fire"}`), webhookCall("Cannot sign in"),
	}}
	store := NewMemoryStore()
	clock := scheduleStart
	routes := buildRoutes(halfDone, s, store, &clock)
	if got := send(routes, s.Steps[0]); got.Status != http.StatusCreated {
		t.Fatalf("the written route answered %s, want 201", saidAnswer(&got))
	}
	defer func() {
		if _, stub := recover().(core.NotWrittenYet); !stub {
			t.Error("the stubbed route did not stop with its NotWrittenYet at its request")
		}
	}()
	routes["webhooks"].ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader("{}")))
}

// TestReadSequenceKeepsEachBodyAsWritten: a body's fields keep their order (the fingerprint must not care,
// the grader compares answers to the reference's), a missing key is none, waits keep their minutes.
func TestReadSequenceKeepsEachBodyAsWritten(t *testing.T) {
	s, err := ReadSequence([]byte(`{"remember":"successes","retentionHours":2,"steps":[` +
		`{"do":"send","route":"tickets","key":"k-1","json":{"priority":"high","subject":"x"},"stepFails":true},` +
		`{"do":"wait","minutes":121},{"do":"send","route":"tickets","json":{"subject":"y"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Sequence{Remember: "successes", RetentionHours: 2, Steps: []Call{
		{Do: "send", Route: "tickets", Key: "k-1", Body: `{"priority":"high","subject":"x"}`, StepFails: true},
		{Do: "wait", Minutes: 121},
		{Do: "send", Route: "tickets", Body: `{"subject":"y"}`},
	}}
	if got, _ := json.Marshal(s); string(got) != string(must(json.Marshal(want))) {
		t.Errorf("read %s, want %s", got, must(json.Marshal(want)))
	}
}

func must[T any](value T, err error) T {
	if err != nil {
		panic(err)
	}
	return value
}

// TestSequenceForGraderWritesTypeScriptsShapes: the answers and the rows as properties.ts's playInMemory
// gives them after the TypeScript observer's plain copy (a key's createdAt, a Date there, is {}).
func TestSequenceForGraderWritesTypeScriptsShapes(t *testing.T) {
	s := Sequence{Remember: "everything", RetentionHours: 24, Steps: []Call{ticketCall(`{"subject":"Printer on fire"}`)}}
	got := string(must(json.Marshal(SequenceForGrader(ForGrader(solution), s))))
	want := `{"answers":[{"status":201,"body":"{\"id\":1}","replayed":false}],` +
		`"end":{"tickets":[{"id":1,"tenant":"acme","subject":"Printer on fire"}],` +
		`"keys":[{"client":"form","key":"k-1","status":201,"body":"{\"id\":1}","createdAt":{}}],"receipts":[]}}`
	if got != want {
		t.Errorf("observed\n  %s\nwant\n  %s", got, want)
	}
}

// TestCrashesForGraderRecordsEveryPoint: every crash point of every request is recorded, each as the
// judge would tell it, and the solution keeps every promise.
func TestCrashesForGraderRecordsEveryPoint(t *testing.T) {
	s := Sequence{Remember: "everything", RetentionHours: 24, Steps: []Call{
		ticketCall(`{"subject":"Printer on fire"}`), ticketCall(`{"subject":"Printer on fire"}`), webhookCall("Cannot sign in"),
	}}
	crashes, err := CrashesForGrader(ForGrader(solution), s)
	if err != nil {
		t.Fatal(err)
	}
	points := 0
	_ = eachCrash(solution, s, NewMemoryStore(), inMemory, everyPoint, func(i int, j crashJudged) bool {
		if problem := tellCrash(s, i, j); problem != "" {
			t.Error(problem)
		}
		points++
		return true
	})
	if len(crashes) != points || points == 0 {
		t.Errorf("recorded %d crashes, where the requests have %d points", len(crashes), points)
	}
	for n, crash := range crashes {
		first := n == 0 || crashes[n-1].Step != crash.Step
		if reference := crash.Judged.Reference; first && (reference == nil || len(reference.Steps) == 0 || reference.Answer == nil) {
			t.Errorf("crash at step %d: the request alone left no steps or no answer: %+v", crash.Step, reference)
		}
		if shared := crash.Judged.Reference != nil || crash.Judged.Before != nil; !first && shared {
			t.Errorf("crash %d at step %d: sent the request's reference or tables again, which its first crash sent", n+1, crash.Step)
		}
	}
}

// TestCrashesForGraderSpeaksTheSharedWords: every method of Tx has its word in contract.ts's Transaction, a
// crash step is sent in it, and a crash is sent as sentCrash sends it (no tables that are known, no retry's
// steps): so the grader's diagnosis compares a Go learner's crashes with TypeScript's named mistakes.
func TestCrashesForGraderSpeaksTheSharedWords(t *testing.T) {
	tx := reflect.TypeOf((*Tx)(nil)).Elem()
	for i := range tx.NumMethod() {
		name := tx.Method(i).Name
		if words := stepWords[name]; words != strings.ToLower(name[:1])+name[1:] {
			t.Errorf("Tx.%s is said %q in an observation, want TypeScript's name of the method", name, words)
		}
	}
	s := Sequence{Remember: "everything", RetentionHours: 24, Steps: []Call{ticketCall(`{"subject":"Printer on fire"}`)}}
	crashes, err := CrashesForGrader(ForGrader(solution), s)
	if err != nil {
		t.Fatal(err)
	}
	for _, crash := range crashes {
		if crash.Judged.Reference == nil {
			continue
		}
		for _, step := range crash.Judged.Reference.Steps {
			if step.Kind == "statement" && stepWords[step.Name] != "" {
				t.Errorf("crash point %d: step %q is Go's name, not the shared word %q", crash.Judged.At+1, step.Name, stepWords[step.Name])
			}
		}
	}
	var first map[string]json.RawMessage
	_ = json.Unmarshal(must(json.Marshal(crashes[0].Judged)), &first)
	var retry map[string]json.RawMessage
	_ = json.Unmarshal(first["retry"], &retry)
	if string(first["afterCrash"]) != "null" || string(first["after"]) != "null" || retry["steps"] != nil {
		t.Errorf("a crash before the first transaction, then its retry, is sent as\n  %s\nwant afterCrash and after null (the tables known) and the retry without its steps", must(json.Marshal(first)))
	}
}
