// Command ticket-server serves 06's POST /api/tickets, the Go solution's (go/solutions/06-ticket-endpoint),
// over real HTTP on a loopback port, on the PostgreSQL at the URL it is given, for the HTTP differential
// check (tools/differential/http.ts). That check drives it with one line of JSON per command on standard
// input, and reads one line of JSON back for each:
//
//	go run ./cmd/ticket-server postgres://…          prints {"url":"http://127.0.0.1:…"} once it listens
//	{"do":"reset","remember":"everything","retentionMs":86400000}  fresh tables; the clock back at the start
//	{"do":"plan","request":3,"fault":"held"}         the fault of the request sent with Workbook-Request: 3
//	{"do":"reached","request":3}                     once request 3 is held before its commit, or has answered
//	{"do":"release","request":3}                     lets a held request commit
//	{"do":"advance","ms":60000}                      moves the routes' clock forward
//	{"do":"end"}                                     {"tickets":[…],"keys":[…]}: what the tables hold
//
// Each command answers {"ok":true}, the contents, or {"error":"…"}. Around the route, the server is
// go/endpoint's: a request's plan comes from its Workbook-Request header (the route never sees it), a
// crashed worker or a lost answer drops the connection, a body over the limit or a control character in a
// header is refused before the route (go/endpoint/server.go), and connections are not kept alive, as in
// harness/endpoint/server.ts.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"sync"
	"time"

	"workbook/endpoint"
	ticketendpoint "workbook/solutions/06-ticket-endpoint"
)

// start is the moment the clock starts at, as in harness/endpoint/schedules.ts.
var start = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// limit bounds a wait for a request that never gets there; it never decides an outcome.
const limit = 10 * time.Second

type command struct {
	Do          string `json:"do"`
	Remember    string `json:"remember"`
	RetentionMs int64  `json:"retentionMs"`
	Request     int    `json:"request"`
	Fault       string `json:"fault"`
	Ms          int64  `json:"ms"`
}

// request is one request's plan, and a channel closed once its route has answered.
type request struct {
	plan     *endpoint.Plan
	answered chan struct{}
	once     sync.Once
}

// server is the ticket route of the store now in use, with its clock and its requests' plans.
type server struct {
	root     string
	mu       sync.Mutex
	now      time.Time
	store    *endpoint.PostgresStore
	tickets  http.Handler
	requests map[int]*request
}

// request is the request of this number, made when first named; one without a number has its own.
func (s *server) request(number int) *request {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.requests[number]; ok && number > 0 {
		return r
	}
	r := &request{plan: endpoint.NewPlan("none"), answered: make(chan struct{})}
	if number > 0 {
		s.requests[number] = r
	}
	return r
}

func (s *server) clock() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

// ServeHTTP answers POST /api/tickets inside the request's plan; another path is 404, another method 405.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	number, _ := strconv.Atoi(r.Header.Get("Workbook-Request"))
	r.Header.Del("Workbook-Request")
	if endpoint.ServeReadme(w, r, s.root) {
		return
	}
	if r.URL.Path != endpoint.Paths["tickets"] {
		http.NotFound(w, r)
		return
	}
	one := s.request(number)
	defer one.once.Do(func() { close(one.answered) })
	s.mu.Lock()
	tickets, plan := s.tickets, one.plan
	s.mu.Unlock()
	recorded := httptest.NewRecorder()
	endpoint.LimitBody(tickets).ServeHTTP(recorded, r.WithContext(endpoint.WithPlan(r.Context(), plan)))
	if plan.Crashed() || plan.Fault == "after-commit" {
		panic(http.ErrAbortHandler) // the connection drops: no answer
	}
	for name, values := range recorded.Header() {
		w.Header()[name] = values
	}
	w.WriteHeader(recorded.Code)
	_, _ = w.Write(recorded.Body.Bytes())
}

var planLine = regexp.MustCompile(`(?im)^workbook-request:\s*(\d+)\s*$`)

// refused is told the head of a request refused before the route: that request has answered.
func (s *server) refused(head []byte) {
	if found := planLine.FindSubmatch(head); found != nil {
		number, _ := strconv.Atoi(string(found[1]))
		one := s.request(number)
		one.once.Do(func() { close(one.answered) })
	}
}

func (s *server) reset(ctx context.Context, url string, c command) error {
	store, err := endpoint.OpenStore(ctx, url, 6)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.requests {
		r.plan.Release()
	}
	if s.store != nil {
		s.store.Close()
	}
	s.store, s.now, s.requests = store, start, map[int]*request{}
	s.tickets = ticketendpoint.Tickets(endpoint.Options{
		Store: store, Remember: endpoint.Remember(c.Remember), Retention: time.Duration(c.RetentionMs) * time.Millisecond,
		Now: s.clock, Tenant: "acme",
	})
	return nil
}

// obey carries out one command and says what to answer.
func (s *server) obey(ctx context.Context, url string, c command) any {
	fail := func(err error) any { return map[string]string{"error": err.Error()} }
	ok := map[string]bool{"ok": true}
	switch c.Do {
	case "reset":
		if err := s.reset(ctx, url, c); err != nil {
			return fail(err)
		}
	case "plan":
		one := s.request(c.Request)
		s.mu.Lock()
		one.plan = endpoint.NewPlan(endpoint.Fault(c.Fault))
		s.mu.Unlock()
	case "reached":
		one := s.request(c.Request)
		s.mu.Lock()
		plan := one.plan
		s.mu.Unlock()
		select {
		case <-plan.Reached:
		case <-one.answered:
		case <-time.After(limit):
			return fail(fmt.Errorf("request %d neither reached its commit nor answered within %s", c.Request, limit))
		}
	case "release":
		one := s.request(c.Request)
		s.mu.Lock()
		defer s.mu.Unlock()
		one.plan.Release()
	case "advance":
		s.mu.Lock()
		s.now = s.now.Add(time.Duration(c.Ms) * time.Millisecond)
		s.mu.Unlock()
	case "end":
		if s.store == nil {
			return fail(fmt.Errorf("no store: reset first"))
		}
		end, err := s.store.Contents(ctx)
		if err != nil {
			return fail(err)
		}
		return map[string]any{"tickets": end.Tickets, "keys": end.Keys}
	default:
		return fail(fmt.Errorf("unknown command %q", c.Do))
	}
	return ok
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./cmd/ticket-server postgres://…")
		os.Exit(2)
	}
	url := os.Args[1]
	ctx := context.Background()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The workbook's folder, where the README that refusals link to is: this command runs from go/.
	s := &server{root: "..", requests: map[int]*request{}}
	httpServer := &http.Server{Handler: s, ErrorLog: nil}
	httpServer.SetKeepAlivesEnabled(false)
	go func() { _ = httpServer.Serve(endpoint.RefuseControlCharacters(listener, s.refused)) }()
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	_ = out.Encode(map[string]string{"url": "http://" + listener.Addr().String()})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var c command
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			_ = out.Encode(map[string]string{"error": err.Error()})
			continue
		}
		_ = out.Encode(s.obey(ctx, url, c))
	}
	if s.store != nil {
		s.store.Close()
	}
}
