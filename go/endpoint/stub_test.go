package endpoint

import (
	"net/http"
	"testing"

	"workbook/core"
)

// TestAStubStopsEachExploration: routes that are still stubs stop every exploration with their own
// NotWrittenYet, as TypeScript's explorations.test.ts pins, so what a learner reads is core.Written's
// "is not written yet", never a promise the stub seemed to break.
func TestAStubStopsEachExploration(t *testing.T) {
	stub := Code{
		Tickets:  func(Options) http.Handler { panic(core.Todo("Tickets", "06-ticket-endpoint/endpoint.go")) },
		Webhooks: func(Options) http.Handler { panic(core.Todo("Webhooks", "06-ticket-endpoint/endpoint.go")) },
	}
	z := sizes{crashSequences: 1, modelRuns: 1, seed: defaultSeed}
	for _, exploration := range []struct {
		name string
		play func()
	}{
		{"the crash points", func() { _, _ = crashProblem(stub, z) }},
		{"the overlaps", func() { _, _ = overlapProblem(stub, z) }},
		{"the model", func() { modelProblem(stub, z) }},
	} {
		t.Run(exploration.name, func(t *testing.T) {
			defer func() {
				if _, stopped := recover().(core.NotWrittenYet); !stopped {
					t.Errorf("%s went on past a stub: core.Written would not be the first to say so", exploration.name)
				}
			}()
			exploration.play()
		})
	}
}
