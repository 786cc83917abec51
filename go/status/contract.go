package status

import "workbook/handler"

// contractTicket is one ticket as the contract keeps it: its status, version, the change that made the
// version, and its comments.
type contractTicket struct {
	status   Status
	version  int
	madeBy   string
	comments []string
}

// Contract is exercise 07's contract as a small reference model, written apart from the solution: a record
// per ticket and a receipt book by change id. A change that made the current version, sent again, is answered
// as now; one decided on an older version is stale; another status moves the version; the same status
// changes nothing. Comments are numbered per ticket, from 1, and a change's receipt answers every repeat
// with its first answer, whatever its text.
type Contract struct {
	order    []int
	tickets  map[int]*contractTicket
	receipts []Receipt
}

// NewContract starts the model with a schedule's tickets.
func NewContract(start []StartTicket) *Contract {
	c := &Contract{tickets: map[int]*contractTicket{}}
	for _, t := range start {
		c.order = append(c.order, t.ID)
		c.tickets[t.ID] = &contractTicket{status: t.Status, version: t.Version, comments: []string{}}
	}
	return c
}

// Deliver is what the sender hears: a worker that dies before its commit leaves nothing, after it everything.
func (c *Contract) Deliver(change Change, fault handler.Fault) Answer {
	if fault == handler.BeforeCommit {
		return Crashed
	}
	answer := c.decide(change)
	if fault == handler.AfterCommit {
		return Crashed
	}
	return answer
}

// VersionOf is a ticket's version now.
func (c *Contract) VersionOf(ticketID int) int { return c.tickets[ticketID].version }

func (c *Contract) decide(change Change) Answer {
	t := c.tickets[change.TicketID]
	if change.Kind == "add-comment" {
		for _, r := range c.receipts {
			if r.ChangeID == change.ChangeID {
				return r.Answer
			}
		}
		t.comments = append(t.comments, change.Text)
		answer := Answer{Kind: "commented", Comment: len(t.comments)}
		c.receipts = append(c.receipts, Receipt{ChangeID: change.ChangeID, Answer: answer})
		return answer
	}
	now := Answer{Kind: "set", Status: t.status, Version: t.version}
	if t.madeBy == change.ChangeID {
		return now
	}
	if change.DecidedOn < t.version {
		return Answer{Kind: "stale", Version: t.version}
	}
	if t.status == change.Status {
		return now
	}
	t.status, t.version, t.madeBy = change.Status, t.version+1, change.ChangeID
	return Answer{Kind: "set", Status: t.status, Version: t.version}
}

// Store is what the contract holds, shaped as a handler's snapshot.
func (c *Contract) Store() Store {
	out := Store{Receipts: append([]Receipt{}, c.receipts...)}
	for _, id := range c.order {
		t := c.tickets[id]
		out.Tickets = append(out.Tickets, Ticket{ID: id, Status: t.status, Version: t.version, LastChange: t.madeBy, Comments: append([]string{}, t.comments...)})
	}
	return out
}

// ExpectedByContract is the versioned expectation of a schedule: the contract's answers, and its store after.
func ExpectedByContract(start []StartTicket, deliveries []Delivery) Expectation {
	c := NewContract(start)
	var answers []Answer
	for _, d := range deliveries {
		answers = append(answers, c.Deliver(d.Change, d.Fault))
	}
	store := c.Store()
	return Expectation{Answers: answers, Tickets: store.Tickets, Receipts: store.Receipts}
}
