// Command differential plays the differential check's cases with the Go solutions and prints what each
// answered, as JSON, one answer per case, in the shape tools/differential/play-ts.ts answers in:
//
//	go run ./cmd/differential cases.json > answers.json
//
// The cases are made up from a seed by tools/differential/cases.ts and written once; TypeScript plays
// the same file, and tools/differential/differential.ts compares the two answers field by field.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	firsthandler "workbook/solutions/01-first-handler"
	sameevent "workbook/solutions/02-same-event"
	sendbuttonkey "workbook/solutions/04-send-button-key"

	"workbook/client"
	"workbook/handler"
	"workbook/outbox"
	"workbook/race"
	"workbook/schedules"
)

// keyStore is 04's solution, as the journeys take it.
var keyStore = client.KeyStoreCode{New: sendbuttonkey.New[client.Fields], AfterAnswer: sendbuttonkey.AfterAnswer[client.Fields]}

// step is one step of an endpoint or a storage case: the fields of both kinds, each read by its own.
type step struct {
	Do      string          `json:"do"`
	Key     string          `json:"key"`
	Body    json.RawMessage `json:"body"`
	Request int             `json:"request"`
	Fault   string          `json:"fault"`
	Methods []string        `json:"methods"`
}

type testCase struct {
	Kind       string             `json:"kind"`
	A          handler.Webhook    `json:"a"`
	B          handler.Webhook    `json:"b"`
	Deliveries []handler.Delivery `json:"deliveries"`
	Steps      []step             `json:"steps"`
	Stored     *string            `json:"stored"`
	Schedule   string             `json:"schedule"`
	Name       string             `json:"name"`
	Text       string             `json:"text"`
	Journey    client.Journey     `json:"journey"`
}

// outcome is a handler's answer, with no ticket written as null, as TypeScript writes it.
type outcome struct {
	Kind     handler.OutcomeKind `json:"kind"`
	TicketID *int                `json:"ticketId"`
}

func orNull(id int) *int {
	if id == 0 {
		return nil
	}
	return &id
}

type handled struct {
	Outcomes []outcome         `json:"outcomes"`
	Tickets  []handler.Ticket  `json:"tickets"`
	Receipts []handler.Receipt `json:"receipts"`
}

func handle(h handler.Handler, deliveries []handler.Delivery) handled {
	played := handled{Outcomes: []outcome{}}
	for _, d := range deliveries {
		o := h.Handle(d.Event, d.Fault)
		played.Outcomes = append(played.Outcomes, outcome{o.Kind, orNull(o.TicketID)})
	}
	db := h.Snapshot()
	played.Tickets = append([]handler.Ticket{}, db.Tickets...)
	played.Receipts = append([]handler.Receipt{}, db.Receipts...)
	return played
}

type reply struct {
	Status   int    `json:"status"`
	TicketID *int   `json:"ticketId"`
	Replayed bool   `json:"replayed"`
	Reason   string `json:"reason"`
}

func endpoint(steps []step) any {
	e := client.NewTicketEndpoint("acme")
	answers := []any{}
	for _, s := range steps {
		if s.Do == "arrive" {
			answers = append(answers, e.Arrive(s.Key, s.Body))
			continue
		}
		r := e.Respond(s.Request, s.Fault == "before-commit")
		answers = append(answers, reply{r.Status, orNull(r.TicketID), r.Replayed, r.Reason})
	}
	return map[string]any{"answers": answers, "tickets": append([]handler.Ticket{}, e.Tickets()...)}
}

func storage(c testCase) any {
	store := &client.MemoryStorage{}
	if c.Stored != nil {
		store.Put(client.EntryName("support"), *c.Stored)
	}
	made := 0
	newKey := func() string { made++; return fmt.Sprintf("key-%d", made) }
	open := func() client.Submissions[map[string]string] {
		return sendbuttonkey.New[map[string]string](store, "support", newKey)
	}
	page := open()
	answers := []any{}
	for _, s := range c.Steps {
		answers = append(answers, storageStep(s, store, &page, open))
	}
	return map[string]any{"answers": answers, "contents": store.Contents()}
}

func storageStep(s step, store *client.MemoryStorage, page *client.Submissions[map[string]string], open func() client.Submissions[map[string]string]) (answer any) {
	defer func() {
		if recover() != nil {
			answer = map[string]bool{"threw": true}
		}
	}()
	switch s.Do {
	case "pending":
		return (*page).Pending()
	case "begin":
		var body map[string]string
		if err := json.Unmarshal(s.Body, &body); err != nil {
			panic(err)
		}
		return (*page).Begin(body)
	case "finish":
		(*page).Finish()
	case "fail":
		methods := make([]client.Method, len(s.Methods))
		for i, m := range s.Methods {
			methods[i] = client.Method(m)
		}
		store.Fail(methods...)
	case "heal":
		store.Heal()
	case "reload":
		*page = open()
	default:
		panic("unknown storage step " + s.Do)
	}
	return nil
}

func schedule(c testCase, dir string) any {
	path := filepath.Join(dir, c.Name+".json")
	if err := os.WriteFile(path, []byte(c.Text), 0o644); err != nil {
		panic(err)
	}
	shown := "schedules/" + c.Schedule + "/" + c.Name + ".json"
	var err error
	switch c.Schedule {
	case "handler":
		_, err = schedules.LoadFile[handler.Schedule](path, shown)
	case "race":
		_, err = schedules.LoadFile[race.Schedule](path, shown)
	case "outbox":
		_, err = schedules.LoadFile[outbox.Schedule](path, shown)
	case "client":
		_, err = schedules.LoadFile[client.Journey](path, shown)
	default:
		err = errors.New("no loader for " + c.Schedule)
	}
	if err != nil {
		return map[string]any{"accepted": false, "said": strings.TrimPrefix(err.Error(), shown+": ")}
	}
	return map[string]any{"accepted": true}
}

func play(c testCase, dir string) any {
	switch c.Kind {
	case "identity":
		return map[string]bool{"same": sameevent.SameEvent(c.A, c.B)}
	case "handler":
		return map[string]handled{
			handler.CreateEveryTime: handle(&firsthandler.TicketHandler{}, c.Deliveries),
			handler.ReceiptInCommit: handle(&sameevent.ReceiptHandler{}, c.Deliveries),
		}
	case "endpoint":
		return endpoint(c.Steps)
	case "storage":
		return storage(c)
	case "journey":
		return client.Play(c.Journey, keyStore)
	case "schedule":
		return schedule(c, dir)
	}
	return map[string]string{"unknown": c.Kind}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./cmd/differential cases.json")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var file struct {
		Cases []testCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		fmt.Fprintln(os.Stderr, "cases:", err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "differential-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	answers := make([]any, len(file.Cases))
	for i, c := range file.Cases {
		answers[i] = play(c, dir)
	}
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	if err := out.Encode(answers); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
