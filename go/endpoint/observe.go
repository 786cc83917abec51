package endpoint

// Exercise 06's plays as the grader's Go observer (go/grader/observe/06-ticket-endpoint) reports them: the
// same plays the tests make, handed back in the shapes grader/inside/06-ticket-endpoint.observe.ts writes,
// so grader/checks/06-ticket-endpoint.held.ts judges both languages with the same judges.
//
//	code := endpoint.ForGrader(endpoint.Code{Tickets: Tickets, Webhooks: Webhooks})
//	stores := endpoint.NewStores(url)             // the run's PostgreSQL, a store lent to each play
//	played, err := endpoint.PlayForGrader(code, schedule, "everything", stores)   // over HTTP on PostgreSQL
//	hooks, err := endpoint.WebhooksForGrader(code, handlerSchedule, stores)       // the handler schedules too
//	endpoint.SequenceForGrader(code, sequence)    // in memory: every answer, and the rows at the end
//	endpoint.CrashesForGrader(code, sequence)     // every crash point and its retry, recorded, not judged
//	endpoint.OverlapForGrader(code, 2)            // the story of overlaps()[2]'s first bad interleaving
//
// What the grader compares across languages is said in the shared words: a crash step names the store's
// method as TypeScript's Transaction does (createTicket, not Go's CreateTicket), and a crash is sent as
// crash-points.ts's sentCrash sends it (no tables that are those before, no retry's steps, a request's own
// reference and tables with its first crash only), so a Go run and
// a TypeScript run that do the same thing send the same observation, and the grader's diagnosis matches a
// Go learner's mistake to the same named mistake. A route's panic is its error ("runtime error: …, at
// endpoint.go:12").

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"workbook/core"
	"workbook/handler"
)

// SaidError is an error as the grader's channel carries it: its name and message.
type SaidError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// saidPanic is what a route panicked with: a stub by its name, anything else as an Error.
func saidPanic(value any, words string) SaidError {
	if stub, ok := value.(core.NotWrittenYet); ok {
		return SaidError{"NotWrittenYet", stub.Error()}
	}
	return SaidError{"Error", words}
}

// ForGrader builds each route only when it is asked for, and turns a route that is still the stub into one
// that panics with the stub's message at its first request: so a submission with one route written is
// graded on that route, as TypeScript's stubs throw only when called.
func ForGrader(code Code) Code {
	lazy := func(build func(Options) http.Handler) func(Options) http.Handler {
		return func(o Options) (route http.Handler) {
			defer func() {
				if p := recover(); p != nil {
					stub, ok := p.(core.NotWrittenYet)
					if !ok {
						panic(p)
					}
					route = http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(stub) })
				}
			}()
			return build(o)
		}
	}
	return Code{Tickets: lazy(code.Tickets), Webhooks: lazy(code.Webhooks)}
}

// GraderAnswer is an HTTP answer as harness/endpoint/play.ts's Answer: header names in lower case, a header
// on several lines joined with ", ".
type GraderAnswer struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

// GraderOutcome is one request: its answer (nil: the connection closed without one), and whether that is known.
type GraderOutcome struct {
	Number  int           `json:"number"`
	Step    int           `json:"step"`
	Answer  *GraderAnswer `json:"answer"`
	Settled bool          `json:"settled"`
}

// GraderStopped is where a play had to stop, and why.
type GraderStopped struct {
	Step int    `json:"step"`
	Why  string `json:"why"`
}

// GraderThrown is what a route panicked with at one request.
type GraderThrown struct {
	Path    string    `json:"path"`
	Request int       `json:"request"`
	Error   SaidError `json:"error"`
}

// GraderKey is a saved key as harness/endpoint/postgres-store.ts's SavedKey. Its createdAt is a Date there,
// which the TypeScript observer's plain copy reads as an empty object (a Date has no own fields): so here.
type GraderKey struct {
	Client    string   `json:"client"`
	Key       string   `json:"key"`
	Status    int      `json:"status"`
	Body      *string  `json:"body,omitempty"`
	CreatedAt struct{} `json:"createdAt"`
}

// GraderContents is what the tables hold, as StoreContents: no rows is an empty list, never null.
type GraderContents struct {
	Tickets  []handler.Ticket  `json:"tickets"`
	Keys     []GraderKey       `json:"keys"`
	Receipts []handler.Receipt `json:"receipts"`
}

// GraderPlayed is an endpoint schedule's play, as harness/endpoint/play.ts's PlayedEndpoint.
type GraderPlayed struct {
	Remember Remember        `json:"remember"`
	Outcomes []GraderOutcome `json:"outcomes"`
	Stopped  *GraderStopped  `json:"stopped"`
	Thrown   []GraderThrown  `json:"thrown"`
	End      *GraderContents `json:"end"`
}

func headersOf(a *answer) map[string]string {
	headers := map[string]string{}
	if a.kind != "" {
		headers["content-type"] = a.kind
	}
	if a.replayed {
		headers["idempotent-replayed"] = "true"
	}
	if len(a.link) > 0 {
		headers["link"] = strings.Join(a.link, ", ")
	}
	if len(a.retry) > 0 {
		headers["retry-after"] = strings.Join(a.retry, ", ")
	}
	return headers
}

func contentsOf(end End) *GraderContents {
	out := &GraderContents{Tickets: append([]handler.Ticket{}, end.Tickets...), Keys: []GraderKey{}, Receipts: append([]handler.Receipt{}, end.Receipts...)}
	for _, k := range end.Keys {
		out.Keys = append(out.Keys, GraderKey{Client: k.Client, Key: k.Key, Status: k.Status})
	}
	return out
}

func rowsOf(rows Rows) GraderContents {
	out := GraderContents{Tickets: append([]handler.Ticket{}, rows.Tickets...), Keys: []GraderKey{}, Receipts: []handler.Receipt{}}
	for _, k := range rows.Keys {
		body := k.Response.Body
		out.Keys = append(out.Keys, GraderKey{Client: k.Client, Key: k.Key, Status: k.Response.Status, Body: &body})
	}
	for _, r := range rows.Receipts {
		out.Receipts = append(out.Receipts, r.Receipt)
	}
	return out
}

// PlayForGrader plays one endpoint schedule under one policy over HTTP, on an empty store that stores lends.
// An error is a server it could not use.
func PlayForGrader(code Code, s Schedule, remember Remember, stores *Stores) (GraderPlayed, error) {
	p, err := playOn(code, s, remember, stores)
	if err != nil {
		return GraderPlayed{}, err
	}
	out := GraderPlayed{Remember: remember, Outcomes: []GraderOutcome{}, Thrown: []GraderThrown{}}
	var sends []int // the step of each request
	for i, step := range s.Steps {
		if step.Do == "send" {
			sends = append(sends, i)
		}
	}
	for n, got := range p.answers {
		outcome := GraderOutcome{Number: n + 1, Step: sends[n], Settled: p.settled[n]}
		if got != nil {
			outcome.Answer = &GraderAnswer{Status: got.status, Headers: headersOf(got), Body: got.body}
		}
		out.Outcomes = append(out.Outcomes, outcome)
	}
	numbers := make([]int, 0, len(p.values))
	for number := range p.values {
		if n, err := strconv.Atoi(number); err == nil && n >= 1 && n <= len(sends) {
			numbers = append(numbers, n)
		}
	}
	sort.Ints(numbers)
	for _, n := range numbers {
		key := strconv.Itoa(n)
		words := p.panics[key]
		if words == "" {
			words = fmt.Sprint(p.values[key])
		}
		path := Paths[s.Steps[sends[n-1]].Route]
		out.Thrown = append(out.Thrown, GraderThrown{Path: path, Request: n, Error: saidPanic(p.values[key], words)})
	}
	if p.stopped != "" {
		out.Stopped = &GraderStopped{Step: p.stoppedAt, Why: p.stopped}
	} else {
		out.End = contentsOf(p.end)
	}
	return out, nil
}

// GraderOutcomeKind is a webhook's answer in the handler schedules' words: a ticket id of 0 is null.
type GraderOutcomeKind struct {
	Kind     string `json:"kind"`
	TicketID *int   `json:"ticketId"`
}

// GraderWebhooks is a handler schedule sent to POST /webhooks, as harness/endpoint/webhooks.ts's PlayedWebhooks.
type GraderWebhooks struct {
	Outcomes []GraderOutcomeKind `json:"outcomes"`
	DB       handler.Database    `json:"db"`
	Thrown   []GraderThrown      `json:"thrown"`
	Stopped  *GraderStopped      `json:"stopped"`
}

// WebhooksForGrader sends a handler schedule's deliveries to POST /webhooks, each with its fault, over HTTP on
// PostgreSQL, and reads the answers and the rows back in the handler schedules' words.
func WebhooksForGrader(code Code, s handler.Schedule, stores *Stores) (GraderWebhooks, error) {
	asRequests := Schedule{Named: s.Named, Title: s.Title, Story: s.Story}
	for _, delivery := range s.Deliveries {
		asRequests.Steps = append(asRequests.Steps, Step{Do: "send", Route: "webhooks", JSON: delivery.Event, Fault: Fault(delivery.Fault), Expect: &ExpectedAnswer{}})
	}
	played, err := PlayForGrader(code, asRequests, "everything", stores)
	if err != nil {
		return GraderWebhooks{}, err
	}
	out := GraderWebhooks{Outcomes: []GraderOutcomeKind{}, DB: handler.Database{Tickets: []handler.Ticket{}, Receipts: []handler.Receipt{}}, Thrown: played.Thrown, Stopped: played.Stopped}
	for _, outcome := range played.Outcomes {
		var got *answer
		if outcome.Answer != nil {
			got = &answer{status: outcome.Answer.Status, body: outcome.Answer.Body}
		}
		said := outcomeOf(got)
		kind := GraderOutcomeKind{Kind: string(said.Kind)}
		if said.TicketID != 0 {
			kind.TicketID = &said.TicketID
		}
		out.Outcomes = append(out.Outcomes, kind)
	}
	if played.End != nil {
		out.DB = handler.Database{Tickets: played.End.Tickets, Receipts: played.End.Receipts}
	}
	return out, nil
}

// sequenceStep is one step of a sequence as harness/endpoint/calls.ts writes it.
type sequenceStep struct {
	Do        string          `json:"do"`
	Route     RouteName       `json:"route"`
	Key       *string         `json:"key"`
	JSON      json.RawMessage `json:"json"`
	StepFails bool            `json:"stepFails"`
	Minutes   int             `json:"minutes"`
}

// ReadSequence reads a sequence as harness/endpoint/calls.ts writes it; each body is its JSON text as
// written, its fields in their order.
func ReadSequence(input []byte) (Sequence, error) {
	var read struct {
		Remember       Remember       `json:"remember"`
		RetentionHours int            `json:"retentionHours"`
		Steps          []sequenceStep `json:"steps"`
	}
	if err := json.Unmarshal(input, &read); err != nil {
		return Sequence{}, err
	}
	sequence := Sequence{Remember: read.Remember, RetentionHours: read.RetentionHours}
	for _, step := range read.Steps {
		c := Call{Do: step.Do, Route: step.Route, Body: string(step.JSON), StepFails: step.StepFails, Minutes: step.Minutes}
		if step.Key != nil {
			c.Key = *step.Key
		}
		sequence.Steps = append(sequence.Steps, c)
	}
	return sequence, nil
}

// GraderCall is a direct call's answer, as calls.ts's Answer.
type GraderCall struct {
	Status   int    `json:"status"`
	Body     string `json:"body"`
	Replayed bool   `json:"replayed"`
}

// GraderInMemory is a sequence played in memory: every answer and the rows at the end, or what a route threw.
type GraderInMemory struct {
	Answers []GraderCall    `json:"answers,omitempty"`
	End     *GraderContents `json:"end,omitempty"`
	Thrown  *SaidError      `json:"thrown,omitempty"`
}

// SequenceForGrader plays the sequence on the in-memory store, one request at a time, as
// harness/endpoint/properties.ts's playInMemory: the grader compares it with the reference's.
func SequenceForGrader(code Code, s Sequence) GraderInMemory {
	store := NewMemoryStore()
	clock := scheduleStart
	out := GraderInMemory{Answers: []GraderCall{}}
	for _, step := range s.Steps {
		if step.Do == "wait" {
			clock = clock.Add(time.Duration(step.Minutes) * time.Minute)
			continue
		}
		got := send(buildRoutes(code, s, &crashingStore{inner: store, crashAt: -1, stepFails: step.StepFails}, &clock), step)
		if got.Panicked != "" {
			return GraderInMemory{Thrown: &SaidError{"Error", got.Panicked}}
		}
		out.Answers = append(out.Answers, GraderCall{got.Status, got.Body, got.Replayed})
	}
	rows, _ := store.Committed(context.Background())
	end := rowsOf(rows)
	out.End = &end
	return out
}

// stepWords are the store's methods in harness/endpoint/contract.ts's words (its Transaction): what a crash
// step is named in an observation, in both languages.
var stepWords = map[string]string{
	"LockKey": "lockKey", "FindKey": "findKey", "SaveKey": "saveKey", "ForgetKey": "forgetKey",
	"CreateTicket": "createTicket", "FindReceipt": "findReceipt", "SaveReceipt": "saveReceipt",
	"ForgetReceipt": "forgetReceipt",
}

// sharedStep is a step's name as TypeScript's observer writes it: a method in contract.ts's words; begin,
// commit and end are the same in both.
func sharedStep(name string) string {
	if words, ok := stepWords[name]; ok {
		return words
	}
	return name
}

// GraderStep is a step a request took against the store, as crash-points.ts's StoreStep.
type GraderStep struct {
	Kind        string `json:"kind"`
	Transaction int    `json:"transaction"`
	Name        string `json:"name"`
	Writes      bool   `json:"writes"`
}

// GraderPlayedOne is one request's play: its answer (nil: lost to the crash, or the route panicked, which
// error says), and its steps.
type GraderPlayedOne struct {
	Answer *GraderCall  `json:"answer"`
	Steps  []GraderStep `json:"steps"`
	Error  *string      `json:"error"`
}

// GraderRetry is the retry's answer (nil: the route panicked, which error says), without its steps: no judge
// reads them, and crash-points.ts's sentCrash does not send them.
type GraderRetry struct {
	Answer *GraderCall `json:"answer"`
	Error  *string     `json:"error"`
}

// GraderJudged is one crash and its retry, with what crash-points.ts's judgeCrash reads, sent as its
// sentCrash sends it: AfterCrash is nil where the tables are those before the request, After nil where
// they are those the request left alone, and Reference, ReferenceAfter and Before nil where they are the
// crash's before it, of the same request (receivedCrash reads them back).
type GraderJudged struct {
	Reference      *GraderPlayedOne `json:"reference"`
	ReferenceAfter *GraderContents  `json:"referenceAfter"`
	Route          RouteName        `json:"route"`
	At             int              `json:"at"`
	Before         *GraderContents  `json:"before"`
	AfterCrash     *GraderContents  `json:"afterCrash"`
	Retry          GraderRetry      `json:"retry"`
	After          *GraderContents  `json:"after"`
	Remember       Remember         `json:"remember"`
}

// GraderCrash is one recorded crash: the step of the sequence it crashed, and what happened.
type GraderCrash struct {
	Step   int          `json:"step"`
	Judged GraderJudged `json:"judged"`
}

func playedOf(p playedOne) GraderPlayedOne {
	out := GraderPlayedOne{Steps: []GraderStep{}}
	for _, s := range p.steps {
		out.Steps = append(out.Steps, GraderStep{s.Kind, s.Transaction, sharedStep(s.Name), s.Writes})
	}
	switch {
	case p.answer == nil:
	case p.answer.Panicked != "":
		said := p.answer.Panicked
		out.Error = &said
	default:
		out.Answer = &GraderCall{p.answer.Status, p.answer.Body, p.answer.Replayed}
	}
	return out
}

// CrashesForGrader plays every crash point of every request of the sequence, and its retry, in memory, and
// records each; the grader judges them outside, with crash-points.ts's tellCrash.
func CrashesForGrader(code Code, s Sequence) ([]GraderCrash, error) {
	crashes := []GraderCrash{}
	var earlier *GraderCrash
	var known struct {
		reference      GraderPlayedOne
		referenceAfter GraderContents
		before         GraderContents
	}
	err := eachCrash(code, s, NewMemoryStore(), inMemory, everyPoint, func(i int, j crashJudged) bool {
		before, referenceAfter, reference := rowsOf(j.before), rowsOf(j.referenceAfter), playedOf(j.reference)
		retry := playedOf(j.retry)
		crash := GraderCrash{Step: i, Judged: GraderJudged{
			Reference: &reference, ReferenceAfter: &referenceAfter, Route: j.route, At: j.at,
			Before: &before, AfterCrash: unlessSame(rowsOf(j.afterCrash), before),
			Retry: GraderRetry{Answer: retry.Answer, Error: retry.Error},
			After: unlessSame(rowsOf(j.afterTheRetry), referenceAfter), Remember: s.Remember,
		}}
		// What this crash shares with the one before it, of the same request, is sent with that one only.
		if earlier != nil && earlier.Step == i {
			crash.Judged.Reference = unlessSame(reference, known.reference)
			crash.Judged.ReferenceAfter = unlessSame(referenceAfter, known.referenceAfter)
			crash.Judged.Before = unlessSame(before, known.before)
		}
		known.reference, known.referenceAfter, known.before = reference, referenceAfter, before
		crashes = append(crashes, crash)
		earlier = &crashes[len(crashes)-1]
		return true
	})
	return crashes, err
}

// unlessSame is value, or nil where it is exactly known, as sentCrash compares them: by their JSON.
func unlessSame[T any](value, known T) *T {
	a, _ := json.Marshal(value)
	b, _ := json.Marshal(known)
	if string(a) == string(b) {
		return nil
	}
	return &value
}

// OverlapForGrader explores overlaps()[index] (the same list, in the same order, as overlaps.ts's): the
// story of its first interleaving that breaks the contract, nil when none does.
func OverlapForGrader(code Code, index int) (*string, error) {
	all := overlaps()
	if index < 0 || index >= len(all) {
		return nil, fmt.Errorf("no overlap %d", index)
	}
	if problem := exploreOverlaps(code, all[index], 5_000); problem != "" {
		return &problem, nil
	}
	return nil, nil
}
