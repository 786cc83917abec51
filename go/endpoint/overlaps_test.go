package endpoint

// The overlaps' hang rule (overlaps.go), as harness/endpoint/overlaps.test.ts holds TypeScript's: a request
// that takes no store step while the process sits idle is hung, one that is only slow (busy, as a loaded
// machine makes every step) is not, and one busy for ever is stopped by the wall clock. The limits are made
// short here, the rule the same: each stall is longer than the idle limit, so a rule of wall clock alone
// would call the slow one hung.

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func sameEventOverlap(t *testing.T) overlap {
	t.Helper()
	for _, o := range overlaps() {
		if strings.HasPrefix(o.name, "one event, the same subject") {
			return o
		}
	}
	t.Fatal("no overlap of one event with the same subject")
	return overlap{}
}

// fifth is the solution, but the webhook it is handed fifth first does what before does: the exploration
// plays the two orders one after the other first (four webhooks), so the fifth is request 1 of the first
// interleaving.
func fifth(before func()) Code {
	var handed atomic.Int32
	webhooks := func(options Options) http.Handler {
		route := solution.Webhooks(options)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if handed.Add(1) == 5 {
				before()
			}
			route.ServeHTTP(w, r)
		})
	}
	return Code{Tickets: solution.Tickets, Webhooks: webhooks}
}

// busyFor keeps a core busy for d of wall clock, or until stop is closed.
func busyFor(d time.Duration, stop <-chan struct{}) {
	for until := time.Now().Add(d); time.Now().Before(until); {
		select {
		case <-stop:
			return
		default:
		}
	}
}

func withLimits(t *testing.T, idle, busy time.Duration) {
	was := [2]time.Duration{idleLimit, busyLimit}
	idleLimit, busyLimit = idle, busy
	t.Cleanup(func() { idleLimit, busyLimit = was[0], was[1] })
}

func TestTheOverlapsHangRule(t *testing.T) {
	if solution.Webhooks == nil {
		t.Fatal("the solution is not plugged in (solution_test.go)")
	}
	o := sameEventOverlap(t)
	stop := make(chan struct{})
	defer close(stop)
	t.Run("a step the process is busy for (twice the idle limit of wall clock) is no hang", func(t *testing.T) {
		withLimits(t, 300*time.Millisecond, 10*time.Second)
		if problem := exploreOverlaps(fifth(func() { busyFor(600*time.Millisecond, stop) }), o, 5_000); problem != "" {
			t.Errorf("a busy step counted as hung:\n%s", problem)
		}
	})
	t.Run("a request that waits on nothing that will ever come is hung, told as before", func(t *testing.T) {
		withLimits(t, 300*time.Millisecond, 10*time.Second)
		started := time.Now()
		problem := exploreOverlaps(fifth(func() { <-stop }), o, 5_000)
		if !strings.Contains(problem, "request 1 got no answer: request 1 hung") {
			t.Errorf("want request 1 hung, got:\n%s", problem)
		}
		if waited := time.Since(started); waited > 5*time.Second {
			t.Errorf("the hang was told after %v: the idle limit is 300ms", waited)
		}
	})
	t.Run("a request busy for ever without a step is stopped by the wall clock", func(t *testing.T) {
		withLimits(t, 300*time.Millisecond, time.Second)
		problem := exploreOverlaps(fifth(func() { busyFor(time.Minute, stop) }), o, 5_000)
		if !strings.Contains(problem, "request 1 got no answer: request 1 hung") {
			t.Errorf("want request 1 hung, got:\n%s", problem)
		}
	})
}
