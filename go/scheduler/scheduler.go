// Package scheduler runs workers against one shared database (the in-memory database.Database, or
// PostgreSQL through database/postgres) deterministically, the Go twin of
// harness/scheduler/scheduler.ts. Each worker is a goroutine that runs until it asks for a database
// operation, then waits; a Pick says whose operation runs next, so a run repeats to the step. Only one
// worker runs at a time. ExploreAll runs every interleaving and judges each end.
package scheduler

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"workbook/database"
)

// CrashPoint is where a worker dies. The crash takes the worker's next turn: once its point has come, the
// next time the worker is picked it dies instead of running its operation, and its open transaction rolls
// back, so others may run in between. A worker whose point never comes dies before it answers.
type CrashPoint struct {
	// When is "after" (after its Nth operation called Operation; Nth 0 counts as 1), "after-operations"
	// (after its Count-th operation; 0 is at its first turn), "before-write" (at the turn of its first
	// operation that saves or changes a row), "before-commit" (at the turn of its first operation that
	// would make a write durable) or "before-answering".
	When      string
	Operation string
	Nth       int
	Count     int
}

// WorkerPlan is one worker: its name, what it does with its connection, and where it crashes (nil: never).
type WorkerPlan[R any] struct {
	Name  string
	Run   func(conn database.Connection) (R, error)
	Crash *CrashPoint
}

// EndingKind is how a worker's run ended.
type EndingKind string

// A worker answered, crashed, failed with an error, or was still going when the run was stopped.
const (
	Answered EndingKind = "answered"
	Crashed  EndingKind = "crashed"
	Failed   EndingKind = "failed"
	Stopped  EndingKind = "stopped"
)

// Ending is how one worker ended: its answer, or its error.
type Ending[R any] struct {
	Kind  EndingKind
	Value R
	Err   error
}

// Choice is what a Pick sees: the workers that can run now (in the order declared), the step about to
// run, and the whole state as text (computed only when asked for).
type Choice struct {
	Runnable []string
	Step     int
	State    func() string
}

// Pick returns the worker to run next, or false to stop the run here.
type Pick func(Choice) (string, bool)

// Run is what a run left: each worker's ending, who ran at each step, the database, whether it stopped.
type Run[R any] struct {
	Endings map[string]Ending[R]
	Steps   []string
	DB      database.Shared
	Stopped bool
}

// Options: Tell says a worker's answer in the trace; MaxSteps stops a worker that loops forever.
type Options[R any] struct {
	Tell     func(R) string
	MaxSteps int
}

// InTurn plays a list of names, one step each. A name whose worker has finished, or waits for another
// transaction, is passed over. When the list runs out, the workers left go one at a time, in the order
// they are declared, each to its end.
func InTurn(list ...string) Pick {
	next := 0
	return func(c Choice) (string, bool) {
		for next < len(list) {
			name := list[next]
			next++
			if slices.Contains(c.Runnable, name) {
				return name, true
			}
		}
		if len(c.Runnable) == 0 {
			return "", false
		}
		return c.Runnable[0], true
	}
}

// OneAtATime runs each worker to its end, in the order declared.
func OneAtATime() Pick { return InTurn() }

// FromNumbers picks from a list of numbers (a random test's), each taken modulo the number of workers that
// can run; when the list runs out, it picks the first that can.
func FromNumbers(numbers []int) Pick {
	next := 0
	return func(c Choice) (string, bool) {
		if len(c.Runnable) == 0 {
			return "", false
		}
		n := 0
		if next < len(numbers) {
			n = numbers[next]
		}
		next++
		return c.Runnable[n%len(c.Runnable)], true
	}
}

// event is what a worker's goroutine tells the scheduler: it parked on an operation, or it ended.
type event[R any] struct {
	parked  bool
	op      database.Operation
	value   R
	err     error
	exited  bool // runtime.Goexit: the scheduler crashed it
	panicky any
}

type slot[R any] struct {
	plan    WorkerPlan[R]
	conn    database.Connection
	status  string // running, parked, done, crashed
	pending *database.Operation
	resume  chan bool
	events  chan event[R]
	ending  Ending[R]
	// leftOpen: the worker's code came back with its transaction still open (left_open.go).
	leftOpen *LeftOpen
}

// Error is a run the scheduler could not go on with: a worker waiting on something that is not the
// database, every worker waiting, a pick that chose a worker that can't run.
type Error struct{ Message string }

func (e *Error) Error() string { return e.Message }

// stallAfter is how long a worker may run without asking for an operation or ending. Workers do no real
// work between operations, so this only trips on one waiting for something else (a mutex, a channel).
const stallAfter = 5 * time.Second

type gate[R any] struct{ slots map[string]*slot[R] }

// Turn parks the worker until the scheduler picks it; a false from resume is a crash: the worker's
// goroutine ends there, as a process would, without running on.
func (g gate[R]) Turn(worker string, op database.Operation) {
	s := g.slots[worker]
	s.events <- event[R]{parked: true, op: op}
	if !<-s.resume {
		runtime.Goexit()
	}
}

func crashDue(point *CrashPoint, conn database.Connection, next *database.Operation) bool {
	if point == nil {
		return false
	}
	done, _ := conn.Log()
	switch point.When {
	case "after":
		count := 0
		for _, name := range done {
			if name == point.Operation {
				count++
			}
		}
		return count >= max(point.Nth, 1)
	case "after-operations":
		return len(done) >= point.Count
	case "before-write":
		return next != nil && next.Writes
	case "before-commit":
		return next != nil && next.Commits
	}
	return false
}

// SaidError is an error in a sentence: "unique violation (duplicate key …)".
func SaidError(err error) string {
	var dbErr *database.Error
	if errors.As(err, &dbErr) {
		return fmt.Sprintf("%s (%s)", humanCode(dbErr.Code), dbErr.Message)
	}
	return err.Error()
}

func humanCode(code database.Code) string {
	for i, r := range code {
		if r == '-' {
			return string(code[:i]) + " " + string(code[i+1:])
		}
	}
	return string(code)
}

// RunWorkers runs the plans on db, choosing with pick at each step.
func RunWorkers[R any](db database.Shared, plans []WorkerPlan[R], pick Pick, opts Options[R]) (Run[R], error) {
	defer OneCore()()
	tell := opts.Tell
	if tell == nil {
		tell = func(v R) string { return fmt.Sprintf("answers %v", v) }
	}
	maxSteps := opts.MaxSteps
	if maxSteps == 0 {
		maxSteps = 10_000
	}
	slots := map[string]*slot[R]{}
	var order []*slot[R]
	g := gate[R]{slots}
	for _, plan := range plans {
		if slots[plan.Name] != nil {
			return Run[R]{}, &Error{"two workers are called " + plan.Name}
		}
		s := &slot[R]{plan: plan, status: "running", resume: make(chan bool), events: make(chan event[R]), ending: Ending[R]{Kind: Stopped}}
		conn, err := db.Open(plan.Name, g)
		if err != nil {
			for _, opened := range order {
				opened.conn.Close(opened.plan.Name + " is not started: another worker could not connect.")
			}
			return Run[R]{}, err
		}
		s.conn = conn
		slots[plan.Name] = s
		order = append(order, s)
	}

	finish := func(s *slot[R], ending Ending[R]) {
		s.status = "done"
		if s.plan.Crash != nil {
			s.ending = Ending[R]{Kind: Crashed}
			s.conn.Close(s.plan.Name + " crashes before it answers.")
			return
		}
		s.ending = ending
		said := s.plan.Name + " " + tell(ending.Value)
		if ending.Kind != Answered {
			said = s.plan.Name + " stops with an error: " + SaidError(ending.Err)
		}
		// Read before Close, which rolls it back: the worker's code came back with it open.
		if s.conn.InTransaction() {
			s.leftOpen = &LeftOpen{Worker: s.plan.Name, Said: said, Answered: ending.Kind == Answered}
			if !s.leftOpen.Answered {
				s.leftOpen.Said = s.plan.Name + " stops with an error: " + shortError(ending.Err)
			}
		}
		s.conn.Close(said + ".")
	}

	// wait lets one worker run until it parks on an operation or ends, then applies its crash point. One
	// timer serves the whole run, reset at each turn: an exploration takes thousands of turns.
	stall := time.NewTimer(stallAfter)
	defer stall.Stop()
	wait := func(s *slot[R]) error {
		var ev event[R]
		stall.Reset(stallAfter)
	waiting:
		for {
			select {
			case ev = <-s.events:
				break waiting
			case <-stall.C:
				stall.Reset(stallAfter)
				// A worker whose statement the server is still working on is not stalled: a busy server
				// (a checkpoint, another test's CREATE DATABASE) is slow, not stuck.
				if withServer, ok := s.conn.(interface{ Busy() bool }); ok && withServer.Busy() {
					continue
				}
				return &Error{s.plan.Name + " is waiting for something that is not a database operation. Workers are separate processes: they share only the database, so a lock or a channel in memory can't coordinate them."}
			}
		}
		switch {
		case ev.parked:
			s.status = "parked"
			s.pending = &ev.op
		case ev.panicky != nil:
			finish(s, Ending[R]{Kind: Failed, Err: fmt.Errorf("panic: %v", ev.panicky)})
		default:
			if ev.err != nil {
				finish(s, Ending[R]{Kind: Failed, Err: ev.err})
			} else {
				finish(s, Ending[R]{Kind: Answered, Value: ev.value})
			}
		}
		return nil
	}

	for _, s := range order {
		go func() {
			roomy()
			returned := false
			var value R
			var err error
			defer func() {
				p := recover()
				s.events <- event[R]{value: value, err: err, exited: !returned && p == nil, panicky: p}
			}()
			value, err = s.plan.Run(s.conn)
			returned = true
		}()
		if err := wait(s); err != nil {
			return Run[R]{}, err
		}
	}

	base := db.StepNow()
	steps := make([]string, 0, 16)
	// state is the database's state and each worker's: where it is, what it heard, how it ended. Written
	// with fmt only for an answer: an exploration asks at every step of thousands of runs.
	state := func() string {
		text := append(make([]byte, 0, 512), db.StateKey()...)
		for _, s := range order {
			text = strconv.AppendQuote(append(text, '|'), s.plan.Name)
			text = append(append(text, ' '), s.status...)
			_, heard := s.conn.Log()
			text = append(text, " ["...)
			for _, said := range heard {
				text = strconv.AppendQuote(append(text, ' '), said)
			}
			text = append(text, "] "...)
			if s.pending != nil {
				text = append(text, s.pending.Name...)
			}
			text = append(append(text, ' '), s.ending.Kind...)
			if s.ending.Kind == Answered {
				text = fmt.Append(append(text, ' '), s.ending.Value)
			}
		}
		return string(text)
	}
	stopped := false
	for {
		// A list of its own at each step, sized once: a Pick may keep what it was shown.
		live, runnable := make([]string, 0, len(order)), make([]string, 0, len(order))
		for _, s := range order {
			if s.status == "parked" {
				live = append(live, s.plan.Name)
				if db.BlockedBy(s.plan.Name) == "" {
					runnable = append(runnable, s.plan.Name)
				}
			}
		}
		if len(live) == 0 {
			break
		}
		if len(runnable) == 0 {
			return Run[R]{}, &Error{fmt.Sprintf("every worker left is waiting: %v", live)}
		}
		if len(steps) >= maxSteps {
			return Run[R]{}, &Error{fmt.Sprintf("more than %d steps: does a worker loop forever?", maxSteps)}
		}
		chosen, ok := pick(Choice{Runnable: runnable, Step: base + len(steps) + 1, State: state})
		if !ok {
			stopped = true
			break
		}
		if !slices.Contains(runnable, chosen) {
			return Run[R]{}, &Error{fmt.Sprintf("the pick chose %s, which can't run now (can run: %v)", chosen, runnable)}
		}
		s := slots[chosen]
		steps = append(steps, chosen)
		db.SetStep(base + len(steps))
		op := s.pending
		s.pending = nil
		// The crash takes the worker's turn: it dies instead of running its operation.
		if crashDue(s.plan.Crash, s.conn, op) {
			s.status = "crashed"
			s.ending = Ending[R]{Kind: Crashed}
			s.conn.Close(chosen + " crashes.")
			s.resume <- false
			<-s.events // its goroutine has ended
			continue
		}
		s.status = "running"
		s.resume <- true
		if err := wait(s); err != nil {
			return Run[R]{}, err
		}
	}
	if stopped {
		// Parked workers of a stopped run are let go as crashes, so no goroutine is left behind.
		for _, s := range order {
			if s.status == "parked" {
				s.conn.Close(s.plan.Name + " is stopped with the run.")
				s.resume <- false
				<-s.events
			}
		}
	}
	endings := map[string]Ending[R]{}
	for _, s := range order {
		endings[s.plan.Name] = s.ending
	}
	run := Run[R]{Endings: endings, Steps: steps, DB: db, Stopped: stopped}
	// No code may hand its connection back inside a transaction: the first worker declared that did. The
	// run comes back with the error, for ExploreAll to judge too.
	for _, s := range order {
		if s.leftOpen != nil {
			s.leftOpen.Committed = db.Committed()
			return run, s.leftOpen
		}
	}
	return run, nil
}

// roomy grows a new worker's stack once, while the goroutine is still shallow, to what a handler's calls
// take. A goroutine starts with a small stack that is copied to one twice its size each time a call goes
// deeper than it: deep in a handler's calls, with every frame on it to move, and again for each worker of
// each run of an exploration (a tenth of a walk's CPU).
//
//go:noinline
func roomy() {
	var room [roomySize]byte
	runtime.KeepAlive(&room)
}

const roomySize = 12 << 10

// OneCore runs the process on one core (GOMAXPROCS 1) until the function it returns is called: defer
// scheduler.OneCore()() around a test that plays many runs. Only one worker runs at a time, handed the turn
// over a channel; with a second core idle, every handover wakes a thread there that finds nothing to do
// (about a quarter of an exploration's CPU). RunWorkers and ExploreAll call it too; nested calls keep the
// outermost's setting, and setting it once for many runs spares each run's two stops of the world.
func OneCore() func() {
	if runtime.GOMAXPROCS(0) == 1 {
		return func() {}
	}
	was := runtime.GOMAXPROCS(1)
	return func() { runtime.GOMAXPROCS(was) }
}

// Explored counts the runs of ExploreAll: started, complete, stopped at a state already explored, and
// judged wrong, with the first few of those.
type Explored[R any] struct {
	Runs, Complete, Pruned, Failed int
	Failures                       []Failure[R]
}

// Failure is one complete run the judge found a problem with.
type Failure[R any] struct {
	Run     Run[R]
	Problem string
}

// ExploreOptions: NoPrune explores states already seen; StopAtFirstFailure ends at the first wrong run.
type ExploreOptions struct {
	NoPrune            bool
	StopAtFirstFailure bool
	MaxRuns            int
}

// ExploreAll runs every interleaving: a depth-first walk over the choices, on a fresh database from setUp
// for each run. Unless NoPrune, a run stops at a state some earlier run has been in, since the rest would
// be the same. judge returns "" for a good end.
func ExploreAll[R any](setUp func() (*database.Database, []WorkerPlan[R], Options[R]), judge func(Run[R]) string, opts ExploreOptions) (Explored[R], error) {
	defer OneCore()()
	seen := map[string]bool{}
	var explored Explored[R]
	var prefix []int
	for {
		var widths, chosen []int
		pick := func(c Choice) (string, bool) {
			index := 0
			if len(chosen) < len(prefix) {
				index = prefix[len(chosen)]
			} else if !opts.NoPrune {
				state := c.State()
				if seen[state] {
					return "", false
				}
				seen[state] = true
			}
			widths = append(widths, len(c.Runnable))
			chosen = append(chosen, index)
			return c.Runnable[index], true
		}
		db, plans, runOpts := setUp()
		run, err := RunWorkers(db, plans, pick, runOpts)
		// A run a worker left inside its transaction is a wrong one: the judge's problem, then that.
		var leftOpen *LeftOpen
		if !errors.As(err, &leftOpen) && err != nil {
			return explored, err
		}
		explored.Runs++
		if run.Stopped && leftOpen == nil {
			explored.Pruned++
		} else {
			explored.Complete++
			problem := ""
			if !run.Stopped {
				problem = judge(run)
			}
			if leftOpen != nil {
				problem = strings.TrimPrefix(problem+"\n"+leftOpen.Error(), "\n")
			}
			if problem != "" {
				explored.Failed++
				if len(explored.Failures) < 5 {
					explored.Failures = append(explored.Failures, Failure[R]{run, problem})
				}
				if opts.StopAtFirstFailure {
					break
				}
			}
		}
		if opts.MaxRuns > 0 && explored.Runs >= opts.MaxRuns {
			break
		}
		k := len(chosen) - 1
		for k >= 0 && chosen[k]+1 >= widths[k] {
			k--
		}
		if k < 0 {
			break
		}
		prefix = append(append([]int{}, chosen[:k]...), chosen[k]+1)
	}
	return explored, nil
}
