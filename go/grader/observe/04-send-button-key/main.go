// Command 04-send-button-key observes a Go learner's exercise 04 for the grader: the key store's calls on a
// storage that may hold an entry and may start failing, the journeys (sends, lost answers, reloads)
// played with it, and AfterAnswer handed one answer (grader/inside/04-send-button-key.observe.ts, in Go).
package main

import (
	"encoding/json"
	"fmt"

	"workbook/client"
	key "workbook/exercises/04-send-button-key"
	"workbook/grader/observe"
	"workbook/handler"
)

var code = client.KeyStoreCode{New: key.New[client.Fields], AfterAnswer: key.AfterAnswer[client.Fields]}

// step is one call of a storage case: pending, begin (with a body), finish, reload, fail (methods), heal.
type step struct {
	Do      string          `json:"do"`
	Body    client.Fields   `json:"body"`
	Methods []client.Method `json:"methods"`
}

// storageRun is what each call answered, and what the storage holds at the end, each text read as JSON
// where it is JSON.
func storageRun(input json.RawMessage) any {
	var c struct {
		Stored *string `json:"stored"`
		Steps  []step  `json:"steps"`
	}
	if err := json.Unmarshal(input, &c); err != nil {
		return observe.Thrown{Name: "Error", Message: err.Error()}
	}
	storage := &client.MemoryStorage{}
	if c.Stored != nil {
		storage.Put(client.EntryName("support"), *c.Stored)
	}
	made := 0
	newKey := func() string { made++; return fmt.Sprintf("key-%d", made) }
	open := func() client.Submissions[client.Fields] { return code.New(storage, "support", newKey) }
	page := open()
	answers := []any{}
	for _, s := range c.Steps {
		answers = append(answers, call(&page, open, storage, s))
	}
	contents := map[string]any{}
	for name, text := range storage.Contents() {
		var value any
		if json.Unmarshal([]byte(text), &value) == nil {
			contents[name] = map[string]any{"json": value}
		} else {
			contents[name] = map[string]any{"text": text}
		}
	}
	return map[string]any{"answers": answers, "contents": contents}
}

// call makes one call; a panic is its answer, as a throw is in TypeScript.
func call(page *client.Submissions[client.Fields], open func() client.Submissions[client.Fields], storage *client.MemoryStorage, s step) (answer any) {
	defer func() {
		if recovered := recover(); recovered != nil {
			answer = map[string]any{"threw": observe.Said(recovered)}
		}
	}()
	switch s.Do {
	case "pending":
		if pending := (*page).Pending(); pending != nil {
			return pending
		}
	case "begin":
		return (*page).Begin(s.Body)
	case "finish":
		(*page).Finish()
	case "reload":
		*page = open()
	case "fail":
		storage.Fail(s.Methods...)
	case "heal":
		storage.Heal()
	}
	return nil
}

// journey plays one journey with the learner's key store: the TypeScript player's shape, its requests in
// the order they were sent.
func journey(input json.RawMessage) any {
	var j client.Journey
	if err := json.Unmarshal(input, &j); err != nil {
		return observe.Thrown{Name: "Error", Message: err.Error()}
	}
	played := client.Play(j, code)
	requests := []map[string]any{}
	steps := []map[string]any{}
	for _, s := range played.Steps {
		var request any
		if s.Request != nil {
			sent := map[string]any{"number": len(requests) + 1, "key": s.Request.Key, "body": s.Request.Body, "reply": s.Request.Reply}
			requests = append(requests, sent)
			request = sent
		}
		steps = append(steps, map[string]any{"request": request, "shows": s.Shows, "locked": s.Locked})
	}
	tickets := played.Tickets
	if tickets == nil {
		tickets = []handler.Ticket{}
	}
	return map[string]any{"steps": steps, "events": []any{}, "requests": requests, "tickets": tickets, "threw": nil}
}

// counting is a submission that is always pending and counts its Finish calls, as the tests' spy does.
type counting struct{ finished int }

func (c *counting) Pending() *client.Pending[client.Fields] {
	return &client.Pending[client.Fields]{Key: "key-1", Body: client.Fields{"subject": "Cannot sign in"}}
}
func (c *counting) Begin(client.Fields) client.Pending[client.Fields] { return *c.Pending() }
func (c *counting) Finish()                                           { c.finished++ }

// shows is a form state in the TypeScript shape: a created form's ticketId, another's status, null if none.
func shows(state client.FormState) map[string]any {
	said := map[string]any{"kind": state.Kind}
	field, value := "status", state.Status
	if state.Kind == "created" {
		field, value = "ticketId", state.TicketID
	}
	if value == nil {
		said[field] = nil
	} else {
		said[field] = *value
	}
	return said
}

// answerRun hands AfterAnswer one answer ({kind: 'reply', status, ticketId} or {kind: 'no-answer'}): what
// the form shows, and how many times it called Finish.
func answerRun(input json.RawMessage) (said any) {
	var a struct {
		Kind     string `json:"kind"`
		Status   int    `json:"status"`
		TicketID *int   `json:"ticketId"`
	}
	if err := json.Unmarshal(input, &a); err != nil {
		return observe.Thrown{Name: "Error", Message: err.Error()}
	}
	answer := client.NoAnswer
	if a.Kind == "reply" {
		answer = client.Answer{Replied: true, Status: a.Status}
		if a.TicketID != nil {
			answer.TicketID = *a.TicketID
		}
	}
	spy := &counting{}
	defer func() {
		if recovered := recover(); recovered != nil {
			said = map[string]any{"threw": observe.Said(recovered), "finished": spy.finished}
		}
	}()
	state := code.AfterAnswer(spy, answer)
	return map[string]any{"shows": shows(state), "finished": spy.finished}
}

func main() {
	observe.Run(observe.Observers{"storage": storageRun, "journey": journey, "answer": answerRun})
}
