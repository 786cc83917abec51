package client

import (
	"encoding/json"
	"fmt"
	"maps"

	"workbook/handler"
)

// The journey player: a tab with its forms, a network that loses and holds requests, and the fake
// endpoint, the twin of harness/client/play.ts. The tests judge what it played against each
// journey file; cmd/differential compares it with the TypeScript player on made-up journeys.

// Fields is what a form sends: its text fields by name ({"subject": …} for the support form), as the
// TypeScript form keeps them. A map, not TicketBody, so a stored body with other fields, or none, is sent
// exactly as TypeScript sends it.
type Fields = map[string]string

// formClient is what one form's code does on the page: open, send, and hear an answer.
type formClient interface {
	opened() (fields Fields, shows FormState)
	send(fields Fields) (key string, body Fields)
	hear(answer Answer) FormState
}

// keyStoreClient is the form with the key store: it reopens an unfinished submission, unsure.
type keyStoreClient struct {
	store Submissions[Fields]
	after func(Submissions[Fields], Answer) FormState
}

func (c keyStoreClient) opened() (Fields, FormState) {
	if p := c.store.Pending(); p != nil {
		return p.Body, UnsureNoAnswer
	}
	return nil, Editing
}

func (c keyStoreClient) send(fields Fields) (string, Fields) {
	started := c.store.Begin(fields)
	return started.Key, started.Body
}

func (c keyStoreClient) hear(answer Answer) FormState { return c.after(c.store, answer) }

// newKeyPerAttempt is the anti-pattern, given: a fresh key for every attempt, and "try again" after
// anything but a 2xx.
type newKeyPerAttempt struct{ newKey func() string }

func (newKeyPerAttempt) opened() (Fields, FormState) { return nil, Editing }

func (c newKeyPerAttempt) send(fields Fields) (string, Fields) { return c.newKey(), maps.Clone(fields) }

func (newKeyPerAttempt) hear(answer Answer) FormState {
	switch {
	case !answer.Replied:
		return UnsureNoAnswer
	case answer.Status >= 200 && answer.Status < 300:
		return Created(answer.TicketID)
	}
	return Unsure(answer.Status)
}

// sent is one request as it went over the wire, and the endpoint's reply (nil: none yet, or never).
type sent struct {
	number  int
	key     string
	body    Fields
	reply   *Reply
	form    string
	page    int
	arrival int
}

type playedStep struct {
	request *sent
	shows   map[string]FormState
	// locked: a type or edit step the form refused, because its fields were locked.
	locked bool
}

// isLocked: a form locks its fields from Send until a definite answer, while it shows sending or unsure.
func isLocked(shows FormState) bool { return shows.Kind == "sending" || shows.Kind == "unsure" }

type played struct {
	steps    []playedStep
	requests []*sent
	tickets  []handler.Ticket
}

type onPage struct {
	client formClient
	fields Fields
	shows  FormState
}

// play runs a journey: a tab with its forms, a network that loses and holds requests, and the endpoint.
func play(j Journey, code KeyStoreCode) played {
	storage := &MemoryStorage{}
	endpoint := NewTicketEndpoint("acme")
	keysMade := 0
	newKey := func() string { keysMade++; return fmt.Sprintf("key-%d", keysMade) }
	page := 0
	forms := map[string]*onPage{}
	var out played

	open := func() {
		page++
		forms = map[string]*onPage{}
		for _, form := range j.Forms {
			var client formClient = newKeyPerAttempt{newKey}
			if j.Client == "key-store" {
				client = keyStoreClient{code.New(storage, form, newKey), code.AfterAnswer}
			}
			fields, shows := client.opened()
			restored := Fields{"subject": ""}
			if fields != nil {
				restored = maps.Clone(fields)
			}
			forms[form] = &onPage{client, restored, shows}
		}
	}
	// An answer reaches its form, unless the page that sent it is gone.
	deliver := func(r *sent, answer Answer) {
		if r.page == page {
			f := forms[r.form]
			f.shows = f.client.hear(answer)
		}
	}
	settle := func(r *sent, fate Fate) {
		reply := endpoint.Respond(r.arrival, fate == "server-fails")
		r.reply = &reply
		if fate == "answer-lost" {
			deliver(r, NoAnswer)
		} else {
			deliver(r, Answer{Replied: true, Status: reply.Status, TicketID: reply.TicketID})
		}
	}

	open()
	for _, step := range j.Steps {
		var request *sent
		locked := false
		switch step.Do {
		case "type", "edit":
			// The fields are locked while the outcome is unknown: Try again sends what was sent.
			f := forms[*step.Form]
			if locked = isLocked(f.shows); !locked {
				f.fields = maps.Clone(f.fields)
				f.fields["subject"] = *step.Subject
			}
		case "send":
			f := forms[*step.Form]
			f.shows = Sending
			key, body := f.client.send(maps.Clone(f.fields))
			request = &sent{number: len(out.requests) + 1, key: key, body: body, form: *step.Form, page: page}
			out.requests = append(out.requests, request)
			if *step.Fate == "request-lost" {
				deliver(request, NoAnswer)
				break
			}
			wire, _ := json.Marshal(body) // what goes over the wire is JSON
			request.arrival = endpoint.Arrive(key, wire)
			if *step.Fate != "held" {
				settle(request, *step.Fate)
			}
		case "release":
			settle(out.requests[*step.Number-1], *step.Fate)
		case "reload":
			open()
		case "store":
			storage.Put(*step.Item, *step.Value)
		case "break-storage":
			storage.Fail()
		}
		shows := map[string]FormState{}
		for name, f := range forms {
			shows[name] = f.shows
		}
		out.steps = append(out.steps, playedStep{request, shows, locked})
	}
	out.tickets = endpoint.Tickets()
	return out
}

// PlayedJourney is what a journey did, as JSON in the shape the TypeScript player's answer takes in the
// differential check: each step's request (or null), what each form showed, whether the form refused a
// type or edit, and the tickets at the end.
type PlayedJourney struct {
	Steps   []PlayedStep     `json:"steps"`
	Tickets []handler.Ticket `json:"tickets"`
}

// PlayedStep is one step of a PlayedJourney.
type PlayedStep struct {
	Request *PlayedRequest `json:"request"`
	Shows   map[string]any `json:"shows"`
	Locked  bool           `json:"locked"`
}

// PlayedRequest is a request as it went over the wire, and the endpoint's reply (nil: never arrived).
type PlayedRequest struct {
	Key   string `json:"key"`
	Body  Fields `json:"body"`
	Reply *struct {
		Status   int    `json:"status"`
		TicketID *int   `json:"ticketId"`
		Replayed bool   `json:"replayed"`
		Reason   string `json:"reason"`
	} `json:"reply"`
}

// Play plays a journey with code as the key store and says what happened; the journey's expectations are
// not read.
func Play(j Journey, code KeyStoreCode) PlayedJourney {
	got := play(j, code)
	out := PlayedJourney{Tickets: append([]handler.Ticket{}, got.tickets...)}
	for _, step := range got.steps {
		played := PlayedStep{Shows: map[string]any{}, Locked: step.locked}
		for form, state := range step.shows {
			played.Shows[form] = shownAsTypeScript(state)
		}
		if r := step.request; r != nil {
			played.Request = &PlayedRequest{Key: r.key, Body: r.body}
			if r.reply != nil {
				played.Request.Reply = &struct {
					Status   int    `json:"status"`
					TicketID *int   `json:"ticketId"`
					Replayed bool   `json:"replayed"`
					Reason   string `json:"reason"`
				}{r.reply.Status, orNull(r.reply.TicketID), r.reply.Replayed, r.reply.Reason}
			}
		}
		out.Steps = append(out.Steps, played)
	}
	return out
}

// shownAsTypeScript writes a form state the way TypeScript's FormState is: status on unsure and refused,
// ticketId on created, null where there is none.
func shownAsTypeScript(f FormState) map[string]any {
	shown := map[string]any{"kind": f.Kind}
	switch f.Kind {
	case "unsure", "refused":
		shown["status"] = f.Status
	case "created":
		shown["ticketId"] = f.TicketID
	}
	return shown
}

func orNull(id int) *int {
	if id == 0 {
		return nil
	}
	return &id
}
