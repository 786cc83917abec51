package endpoint

// A reference model of exercise 06's contract, the Go twin of harness/endpoint/model.ts: what each request
// should get, and what the tables should hold, worked out from the rules alone, with no store and no
// transactions. property.go compares the routes with it answer by answer.
//
//	model := newModel("everything", 24)
//	model.wait(25 * 60)             // the clock moves on
//	want := model.send(call)        // wanted{status, json or replays, why}
//	model.adopt(got)                // the route's body becomes the one a replay must repeat
//
// The rules: a key is kept for the retention from its first answer, then forgotten (a request under it is
// new again). Under a kept key, a body with the same fingerprint (the whole parsed body, whatever its field
// order) gets the saved answer again, byte for byte and marked replayed; any other body gets 422. A 201 is
// saved with its key; a 500 only when the server remembers everything. A webhook's receipt is kept as long;
// a redelivery within it gets Replay (02's rule: the same subject replays, another is a conflict, 422), one
// after it makes a new ticket. Tickets count from 1.

import (
	"encoding/json"
	"time"

	"workbook/handler"
)

// wanted is what an answer must be: its status, and its JSON (a first answer) or the earlier body it
// repeats (a replay, replays non-nil), and why.
type wanted struct {
	status  int
	json    any
	replays *string
	why     string
}

type keptKey struct {
	print  string
	status int
	body   *string
	at     time.Time
}

type keptReceipt struct {
	receipt handler.Receipt
	at      time.Time
}

type model struct {
	remember  Remember
	retention time.Duration
	now       time.Time
	tickets   []handler.Ticket
	keys      map[string]*keptKey
	receipts  map[string]keptReceipt
	pending   *keptKey
}

func newModel(remember Remember, retentionHours int) *model {
	return &model{remember: remember, retention: time.Duration(retentionHours) * time.Hour, now: scheduleStart,
		keys: map[string]*keptKey{}, receipts: map[string]keptReceipt{}}
}

func (m *model) kept(at time.Time) bool { return m.now.Sub(at) < m.retention }

func (m *model) wait(minutes int) { m.now = m.now.Add(time.Duration(minutes) * time.Minute) }

// canonical is a JSON text with its fields in one order: encoding/json writes a map's keys sorted.
func canonical(text string) string {
	var parsed any
	if json.Unmarshal([]byte(text), &parsed) != nil {
		return text
	}
	again, _ := json.Marshal(parsed)
	return string(again)
}

func (m *model) send(c Call) wanted {
	m.pending = nil
	if c.Route == "tickets" {
		return m.ticket(c)
	}
	var event handler.Webhook
	_ = json.Unmarshal([]byte(c.Body), &event)
	return m.webhook(event)
}

func (m *model) ticket(c Call) wanted {
	print := canonical(c.Body)
	saved := m.keys[c.Key]
	if saved != nil && m.kept(saved.at) {
		if saved.print != print {
			return wanted{status: 422, why: "another body under a key still kept: refused"}
		}
		return wanted{status: saved.status, replays: saved.body, why: "the same body under a key still kept: replayed"}
	}
	delete(m.keys, c.Key)
	if c.StepFails {
		if m.remember == "everything" {
			m.pending = &keptKey{print: print, status: 500, at: m.now}
			m.keys[c.Key] = m.pending
		}
		return wanted{status: 500, why: `the ticket's insert failed (remember: "` + string(m.remember) + `")`}
	}
	var body struct{ Subject string }
	_ = json.Unmarshal([]byte(c.Body), &body)
	id := len(m.tickets) + 1
	m.tickets = append(m.tickets, handler.Ticket{ID: id, Tenant: "acme", Subject: body.Subject})
	m.pending = &keptKey{print: print, status: 201, at: m.now}
	m.keys[c.Key] = m.pending
	why := "a new key: a ticket"
	if saved != nil {
		why = "the key had expired, so the request is new: a ticket"
	}
	return wanted{status: 201, json: map[string]int{"id": id}, why: why}
}

func (m *model) webhook(event handler.Webhook) wanted {
	id := handler.SaidIdentity(event)
	seen, ok := m.receipts[id]
	if ok && m.kept(seen.at) {
		outcome := handler.Replay(seen.receipt, event)
		if outcome.Kind == "conflict" {
			return wanted{status: 422, why: "a redelivery with another subject within the retention: a conflict"}
		}
		return wanted{status: 200, json: map[string]any{"kind": outcome.Kind, "ticketId": outcome.TicketID}, why: "a redelivery within the retention: replayed"}
	}
	ticketID := len(m.tickets) + 1
	m.tickets = append(m.tickets, handler.Ticket{ID: ticketID, Tenant: event.Tenant, Subject: event.Subject})
	m.receipts[id] = keptReceipt{handler.Receipt{Event: event, TicketID: ticketID}, m.now}
	why := "a first delivery: a ticket"
	if ok {
		why = "the receipt had expired: a new ticket"
	}
	return wanted{status: 201, json: map[string]any{"kind": "created", "ticketId": ticketID}, why: why}
}

// adopt takes the body the route sent for an answer just saved: the one a replay must send again.
func (m *model) adopt(got Answer) {
	if m.pending != nil {
		m.pending.body = &got.Body
	}
	m.pending = nil
}
