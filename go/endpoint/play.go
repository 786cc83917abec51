package endpoint

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"workbook/database/postgres"
	"workbook/handler"
	"workbook/schedules"
)

// urlVariable names the PostgreSQL the TypeScript side started (lib/go-test.ts starts one for go test).
const urlVariable = postgres.URLVariable

// planHeader is the harness's header: which plan a request follows. The handlers never see it.
const planHeader = "Workbook-Request"

// scheduleStart is the moment every schedule starts at, as in TypeScript's play.ts.
var scheduleStart = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// answer is what came back for a request, or nil when the connection closed without one.
type answer struct {
	status   int
	body     string
	replayed bool
	kind     string
	link     []string
	retry    []string
}

// served is the routes behind a loopback server, with each request's plan, and what a route panicked with
// at each request that met one (its connection dropped, as net/http drops it, but with no stack logged).
type served struct {
	*httptest.Server
	mu     sync.Mutex
	plans  map[string]*Plan
	panics map[string]string
	values map[string]any // by request number: the value itself, which the grader's observer reads
}

func (s *served) plan(number string) *Plan {
	s.mu.Lock()
	defer s.mu.Unlock()
	if plan, ok := s.plans[number]; ok {
		return plan
	}
	return NewPlan("none")
}

// serve puts the routes on a loopback port, and 06's README where refusals link (ServeReadme): POST only,
// bodies up to MaxBodyBytes, a control character in a header refused before any route (server.go), one
// request per connection, and a dropped connection instead of an answer when the plan crashed the worker or
// loses the answer after the commit.
func serve(routes map[string]http.Handler) *served {
	s := &served{plans: map[string]*Plan{}, panics: map[string]string{}, values: map[string]any{}}
	// Looked for at the first GET only: the grader's sandbox has no workbook folder, and sends no GET.
	root := sync.OnceValue(workbookFolder)
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && ServeReadme(w, r, root()) {
			return
		}
		route, ok := routes[r.URL.Path]
		if !ok || r.Method != http.MethodPost {
			Problem(w, http.StatusNotFound, "Not Found", "nothing is served here")
			return
		}
		number := r.Header.Get(planHeader)
		plan := s.plan(number)
		r.Header.Del(planHeader)
		recorded := httptest.NewRecorder()
		defer func() {
			if p := recover(); p != nil {
				if p != http.ErrAbortHandler {
					s.mu.Lock()
					s.panics[number] = panicked(p, debug.Stack())
					s.values[number] = p
					s.mu.Unlock()
				}
				panic(http.ErrAbortHandler)
			}
		}()
		LimitBody(route).ServeHTTP(recorded, r.WithContext(WithPlan(r.Context(), plan)))
		if plan.Crashed() || plan.Fault == "after-commit" {
			panic(http.ErrAbortHandler) // the connection drops: no answer
		}
		for name, values := range recorded.Header() {
			w.Header()[name] = values
		}
		w.WriteHeader(recorded.Code)
		_, _ = w.Write(recorded.Body.Bytes())
	}))
	s.Listener = RefuseControlCharacters(s.Listener, nil)
	s.Config.SetKeepAlivesEnabled(false)
	s.Config.ErrorLog = nil
	s.Start()
	return s
}

// DefaultClient is who sends a step that names none: 04's form, as harness/client/model.ts says.
const DefaultClient = "form"

func bodyOf(step Step) string {
	switch {
	case step.Base64 != nil:
		bytes, _ := base64.StdEncoding.DecodeString(*step.Base64)
		return string(bytes)
	case step.Text != nil:
		return *step.Text
	case step.SubjectBytes > 0:
		text, _ := json.Marshal(map[string]string{"subject": strings.Repeat("x", step.SubjectBytes)})
		return string(text)
	}
	text, _ := json.Marshal(step.JSON)
	return string(text)
}

var httpClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// holdsControl says whether a header value holds a control character, which Go's client refuses to send.
func holdsControl(header http.Header) bool {
	for _, values := range header {
		for _, value := range values {
			if strings.ContainsFunc(value, func(c rune) bool { return c < 0x80 && isControl(byte(c)) }) {
				return true
			}
		}
	}
	return false
}

// postRaw writes the request as it is on a connection of its own, and reads the answer back whole.
func postRaw(request *http.Request) (*http.Response, error) {
	conn, err := net.Dial("tcp", request.URL.Host)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	request.Close = true
	if err := request.Write(conn); err != nil {
		return nil, err
	}
	response, err := http.ReadResponse(bufio.NewReader(conn), request)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(response.Body)
	response.Body = io.NopCloser(bytes.NewReader(body))
	return response, err
}

func post(url string, step Step, number int) *answer {
	request, _ := http.NewRequest(http.MethodPost, url+Paths[step.Route]+step.Query, strings.NewReader(bodyOf(step)))
	kind := step.ContentType
	if kind == "" {
		kind = "application/json"
	}
	request.Header.Set("Content-Type", kind)
	request.Header.Set(planHeader, strconv.Itoa(number))
	switch {
	case step.Authorization != nil:
		request.Header["Authorization"] = []string{*step.Authorization}
	case step.Client != "":
		request.Header.Set("Authorization", "Bearer "+step.Client)
	case !step.Anonymous:
		request.Header.Set("Authorization", "Bearer "+DefaultClient)
	}
	if step.Key != nil {
		request.Header["Idempotency-Key"] = []string{*step.Key}
	}
	if step.KeyLines != nil {
		request.Header["Idempotency-Key"] = step.KeyLines
	}
	// A header with a control character is written raw: the server, not the client, must refuse it.
	send := httpClient.Do
	if holdsControl(request.Header) {
		send = postRaw
	}
	response, err := send(request)
	if err != nil {
		return nil
	}
	defer response.Body.Close()
	body, err := io.ReadAll(response.Body)
	if err != nil {
		return nil
	}
	return &answer{
		status:   response.StatusCode,
		body:     string(body),
		replayed: response.Header.Get("Idempotent-Replayed") == "true",
		kind:     strings.TrimSpace(strings.Split(response.Header.Get("Content-Type"), ";")[0]),
		link:     response.Header.Values("Link"),
		retry:    response.Header.Values("Retry-After"),
	}
}

type played struct {
	answers   []*answer
	settled   []bool // by request number - 1: its answer (or its absence) is known
	stopped   string
	stoppedAt int // the step the play stopped at, when it stopped
	end       End
	panics    map[string]string // by request number: what the route panicked with
	values    map[string]any    // by request number: the value it panicked with
}

// limit bounds a wait for a request that never gets there; it never decides an outcome.
const limit = 10 * time.Second

func play(t testing.TB, code Code, s Schedule, remember Remember, stores *Stores) played {
	result, err := playOn(code, s, remember, stores)
	if err != nil {
		t.Fatal(err)
	}
	return result
}

// playOn plays the schedule on an empty store lent by stores; an error is a server it could not use.
func playOn(code Code, s Schedule, remember Remember, stores *Stores) (played, error) {
	ctx := context.Background()
	store, err := stores.Take(ctx)
	if err != nil {
		return played{}, fmt.Errorf("PostgreSQL at %s: %w", urlVariable, err)
	}
	defer stores.Give(store) // the last to run: the server below is closed, every request over
	var clock sync.Mutex
	now := scheduleStart
	retention := 24 * time.Hour
	if s.RetentionHours > 0 {
		retention = time.Duration(s.RetentionHours * float64(time.Hour))
	}
	options := Options{Store: store, Remember: remember, Retention: retention, Tenant: "acme", Now: func() time.Time {
		clock.Lock()
		defer clock.Unlock()
		return now
	}}
	server := serve(map[string]http.Handler{Paths["tickets"]: code.Tickets(options), Paths["webhooks"]: code.Webhooks(options)})
	defer server.Close()
	var result played
	pending := map[int]chan *answer{}
	settle := func(number int) error {
		select {
		case got := <-pending[number]:
			result.answers[number-1] = got
			result.settled[number-1] = true
			delete(pending, number)
			return nil
		case <-time.After(limit):
			return fmt.Errorf("request %d got no answer within %s", number, limit)
		}
	}
	defer func() {
		for _, plan := range server.plans {
			plan.Release()
		}
	}()
	sent := 0
	for at, step := range s.Steps {
		var err error
		switch step.Do {
		case "wait":
			clock.Lock()
			now = now.Add(time.Duration(step.Minutes) * time.Minute)
			clock.Unlock()
		case "send":
			sent++
			number := sent
			plan := NewPlan(step.Fault)
			server.mu.Lock()
			server.plans[strconv.Itoa(number)] = plan
			server.mu.Unlock()
			done := make(chan *answer, 1)
			pending[number] = done
			result.answers = append(result.answers, nil)
			result.settled = append(result.settled, false)
			go func() { done <- post(server.URL, step, number) }()
			switch {
			case step.Fault == "held":
				select {
				case <-plan.Reached:
				case got := <-done:
					done <- got
				case <-time.After(limit):
					err = fmt.Errorf("request %d never reached its commit", number)
				}
			case step.Waits:
				err = waitForLock(ctx, store, done)
			default:
				err = settle(number)
			}
		case "release":
			err = goesFirst(ctx, store, server, pending, step.Request)
			for number := range pending {
				if err != nil {
					break
				}
				err = settle(number)
			}
		}
		if err != nil {
			result.stopped, result.stoppedAt = err.Error(), at
			// The story of a stopped play is the stop; the grader's observer still reads the values.
			_, result.values = server.panicked()
			return result, nil
		}
	}
	result.end, err = store.Contents(ctx)
	if err != nil {
		return result, fmt.Errorf("reading what PostgreSQL holds: %w", err)
	}
	result.panics, result.values = server.panicked()
	return result, nil
}

// panicked is what the routes panicked with so far, by request number: in words, and the values.
func (s *served) panicked() (map[string]string, map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.panics), maps.Clone(s.values)
}

// goesFirst lets a held request go on to its commit ahead of every other request in flight: they wait their
// turn (Plan.WaitTurn) until it has answered, or waits on a lock while they all sit at their turn (so the
// connection waiting is its own). Which of two requests wins never depends on the machine's timing.
func goesFirst(ctx context.Context, store *PostgresStore, server *served, pending map[int]chan *answer, request int) error {
	var others []*Plan
	for number := range pending {
		if number != request {
			plan := server.plan(strconv.Itoa(number))
			plan.WaitTurn()
			others = append(others, plan)
		}
	}
	defer func() {
		for _, plan := range others {
			plan.YourTurn()
		}
	}()
	server.plan(strconv.Itoa(request)).Release()
	done, inFlight := pending[request]
	if !inFlight {
		return nil
	}
	deadline := time.Now().Add(limit)
	for pause := time.Millisecond; time.Now().Before(deadline); pause = min(pause*2, 10*time.Millisecond) {
		select {
		case got := <-done:
			done <- got
			return nil
		default:
		}
		if allAtTheirTurn(others) {
			if waiting, err := store.WaitingOnLocks(ctx); err != nil || waiting > 0 {
				return err
			}
		}
		time.Sleep(pause)
	}
	return fmt.Errorf("request %d got no answer within %s", request, limit)
}

func allAtTheirTurn(plans []*Plan) bool {
	for _, plan := range plans {
		if !plan.AtItsTurn() {
			return false
		}
	}
	return true
}

// waitForLock returns once one of the store's connections waits on a lock, or the request has answered.
func waitForLock(ctx context.Context, store *PostgresStore, done chan *answer) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case got := <-done:
			done <- got
			return nil
		default:
		}
		if waiting, err := store.WaitingOnLocks(ctx); err != nil || waiting > 0 {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
	return errors.New("the request never waited on a lock")
}

func said(a *answer) string {
	if a == nil {
		return "no answer"
	}
	text := fmt.Sprintf("%d %s", a.status, a.body)
	if a.replayed {
		text += " (replayed)"
	}
	return text
}

func sameJSON(a any, text string) bool {
	var b any
	if json.Unmarshal([]byte(text), &b) != nil {
		return false
	}
	left, _ := json.Marshal(a)
	right, _ := json.Marshal(b)
	return bytes.Equal(left, right)
}

// problems lists what is wrong with one answer.
func problems(want ExpectedAnswer, got *answer, answers []*answer) []string {
	if want.Status == nil {
		if got != nil {
			return []string{"expected no answer (the worker is gone), got " + said(got)}
		}
		return nil
	}
	if got == nil {
		return []string{fmt.Sprintf("expected %d, but the connection closed with no answer", *want.Status)}
	}
	var list []string
	if got.status != *want.Status {
		list = append(list, fmt.Sprintf("expected status %d, got %d", *want.Status, got.status))
	}
	if want.JSON != nil && !sameJSON(want.JSON, got.body) {
		text, _ := json.Marshal(want.JSON)
		list = append(list, fmt.Sprintf("expected the body %s, got %s", text, got.body))
	}
	if want.SameAs > 0 {
		if first := answers[want.SameAs-1]; first != nil && (first.body != got.body || first.status != got.status) {
			list = append(list, fmt.Sprintf("expected answer %d again byte for byte (%s), got %s", want.SameAs, said(first), said(got)))
		}
	}
	if want.Replayed != nil && *want.Replayed && !got.replayed {
		list = append(list, "expected the header Idempotent-Replayed: true, it is missing")
	}
	if want.Replayed != nil && !*want.Replayed && got.replayed {
		list = append(list, "expected no Idempotent-Replayed header: this answer is not a replay")
	}
	if want.Problem != nil {
		var body struct {
			Title  string `json:"title"`
			Detail string `json:"detail"`
			Status int    `json:"status"`
		}
		switch {
		case got.kind != "application/problem+json":
			list = append(list, "expected Content-Type application/problem+json (RFC 9457), got "+got.kind)
		case json.Unmarshal([]byte(got.body), &body) != nil || body.Title == "" || body.Status != got.status:
			list = append(list, "expected a problem body with a title and the same status")
		case !strings.Contains(strings.ToLower(body.Title+" "+body.Detail), strings.ToLower(*want.Problem)):
			list = append(list, fmt.Sprintf("expected the problem to name %q, it says: %s", *want.Problem, got.body))
		}
	}
	if want.Rule != "" {
		list = append(list, ruleProblems(want.Rule, got)...)
	}
	return list
}

// ruleProblems lists what is wrong with an answer that should be the refusal named rule: its status, its
// words, its Link to the README, and Retry-After on a 409.
func ruleProblems(name string, got *answer) []string {
	rule := Problems[name]
	if got.status != rule.Status {
		return []string{fmt.Sprintf("expected the refusal %q (%d %s), got %d", name, rule.Status, rule.Title, got.status)}
	}
	var list []string
	var body struct{ Title, Detail string }
	if json.Unmarshal([]byte(got.body), &body) != nil || body.Title != rule.Title || body.Detail != rule.Detail {
		list = append(list, fmt.Sprintf("expected the problem %q (title %q, detail %q), it says: %s", name, rule.Title, rule.Detail, got.body))
	}
	link := ReadmeLink(rule.Section)
	if !slices.Equal(got.link, []string{link}) {
		list = append(list, fmt.Sprintf("expected the header Link: %s, got %v", link, got.link))
	}
	var retry []string
	if rule.Status == http.StatusConflict {
		retry = []string{strconv.Itoa(RetryAfterSeconds)}
	}
	if !slices.Equal(got.retry, retry) {
		list = append(list, fmt.Sprintf("expected Retry-After %v on a %d, got %v", retry, rule.Status, got.retry))
	}
	return list
}

func judge(s Schedule, remember Remember, p played) string {
	head := fmt.Sprintf("Schedule %q (%s), remember: %q: %s", s.Name, s.Title, remember, s.Story)
	var rows []schedules.Row
	number := 0
	var first string
	for _, step := range s.Steps {
		if step.Do != "send" {
			continue
		}
		number++
		var got *answer
		if number <= len(p.answers) {
			got = p.answers[number-1]
		}
		want := expected(*step.Expect, p.answers)
		rows = append(rows, schedules.Row{Label: fmt.Sprintf("request %d", number), Expected: []string{want}, Actual: []string{said(got)}})
		if first == "" && number <= len(p.answers) {
			if list := problems(*step.Expect, got, p.answers); len(list) > 0 {
				if why := p.panics[strconv.Itoa(number)]; why != "" && got == nil {
					list = append(list, "your route panicked: "+why)
				}
				first = fmt.Sprintf("%s:\n  - %s", describeRequest(s, number), strings.Join(list, "\n  - "))
				if cause := usualCause(s, number, got); cause != "" {
					first += "\nWhat this usually means: " + cause
				}
			}
		}
	}
	if first == "" && p.stopped != "" {
		first = p.stopped
	}
	if first == "" && reflect.DeepEqual(normal(s.End), normal(p.end)) {
		return ""
	}
	if first == "" {
		first = "every answer was right, but what PostgreSQL holds at the end differs"
	}
	rows = append(rows,
		schedules.Row{Label: "tickets", Expected: saidTickets(s.End.Tickets), Actual: saidTickets(p.end.Tickets)},
		schedules.Row{Label: "keys", Expected: saidKeys(s.End.Keys), Actual: saidKeys(p.end.Keys)},
	)
	return head + "\n" + first + "\n\n" + schedules.SideBySide(rows)
}

// expected says an expectation the way said says an answer, so the rows that agree read the same.
func expected(want ExpectedAnswer, answers []*answer) string {
	if want.Status == nil {
		return "no answer"
	}
	if want.SameAs > 0 && want.SameAs <= len(answers) && answers[want.SameAs-1] != nil {
		again := *answers[want.SameAs-1]
		again.replayed = want.Replayed != nil && *want.Replayed
		return said(&again)
	}
	text := strconv.Itoa(*want.Status)
	if want.JSON != nil {
		body, _ := json.Marshal(want.JSON)
		text += " " + string(body)
	}
	if want.Problem != nil {
		text += " (a problem naming " + strconv.Quote(*want.Problem) + ")"
	}
	if want.Replayed != nil && *want.Replayed {
		text += " (replayed)"
	}
	return text
}

func normal(end End) End {
	if end.Tickets == nil {
		end.Tickets = []handler.Ticket{}
	}
	keys := []SavedKey{}
	for _, k := range end.Keys {
		if k.Client == "" {
			k.Client = DefaultClient
		}
		keys = append(keys, k)
	}
	end.Keys = keys
	if end.Receipts == nil {
		end.Receipts = []handler.Receipt{}
	}
	return end
}

func saidTickets(tickets []handler.Ticket) []string {
	var lines []string
	for _, t := range tickets {
		lines = append(lines, fmt.Sprintf("#%d %s: %s", t.ID, t.Tenant, t.Subject))
	}
	return lines
}

func saidKeys(keys []SavedKey) []string {
	var lines []string
	for _, k := range keys {
		owner := ""
		if k.Client != "" && k.Client != DefaultClient {
			owner = k.Client + "'s "
		}
		lines = append(lines, fmt.Sprintf("%s%q → %d", owner, k.Key, k.Status))
	}
	return lines
}

// outcomeOf is what a webhook's HTTP answer means, in the handler schedules' words.
func outcomeOf(a *answer) handler.Outcome {
	if a == nil {
		return handler.Outcome{Kind: "crashed"}
	}
	var body struct {
		TicketID int `json:"ticketId"`
	}
	_ = json.Unmarshal([]byte(a.body), &body)
	switch a.status {
	case http.StatusCreated:
		return handler.Outcome{Kind: "created", TicketID: body.TicketID}
	case http.StatusOK:
		return handler.Outcome{Kind: "replayed", TicketID: body.TicketID}
	case http.StatusUnprocessableEntity:
		return handler.Outcome{Kind: "conflict"}
	}
	return handler.Outcome{Kind: handler.OutcomeKind(fmt.Sprintf("answered %d", a.status)), TicketID: body.TicketID}
}

// playWebhooks sends a handler schedule's deliveries to POST /webhooks, each with its fault, and reads the
// answers and rows back in the handler schedules' words. stopped says why the play ended early, if it did.
func playWebhooks(t testing.TB, code Code, s handler.Schedule, stores *Stores) (got handler.Played, stopped string) {
	asRequests := Schedule{Named: s.Named, Title: s.Title, Story: s.Story}
	for _, delivery := range s.Deliveries {
		fault := Fault(delivery.Fault)
		asRequests.Steps = append(asRequests.Steps, Step{Do: "send", Route: "webhooks", JSON: delivery.Event, Fault: fault, Expect: &ExpectedAnswer{}})
	}
	p := play(t, code, asRequests, "everything", stores)
	for number := range len(p.answers) {
		if why := p.panics[strconv.Itoa(number+1)]; why != "" && p.stopped == "" {
			p.stopped = fmt.Sprintf("delivery %d got no answer: your route panicked: %s", number+1, why)
		}
	}
	for _, a := range p.answers {
		got.Outcomes = append(got.Outcomes, outcomeOf(a))
	}
	got.DB = handler.Database{Tickets: p.end.Tickets, Receipts: p.end.Receipts}
	return got, p.stopped
}
