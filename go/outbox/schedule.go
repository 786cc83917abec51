package outbox

import (
	"fmt"
	"strings"

	"workbook/database"
	"workbook/handler"
	"workbook/schedules"
)

// CrashAfter is where a relay run dies: after reading the pending rows, or after the provider accepted
// (send) or the relay marked sent (mark) its email number Email of this run.
type CrashAfter string

// Values lists the crash points a schedule may name.
func (CrashAfter) Values() []string { return []string{"read", "send", "mark"} }

// RelayCrash is where a relay run dies.
type RelayCrash struct {
	After CrashAfter `json:"after"`
	Email int        `json:"email,omitempty"`
}

// Step is one step of an outbox schedule: a delivery, a relay run, the provider going down or coming
// back, or time passing. Which fields it has depends on Do.
type Step struct {
	Do      string           `json:"do"`
	Event   *handler.Webhook `json:"event,omitempty"`
	Fault   handler.Fault    `json:"fault,omitempty"`
	Crash   *RelayCrash      `json:"crash,omitempty"`
	Seconds int              `json:"seconds,omitempty"`
}

// UnionTag is the field that picks a step's shape.
func (Step) UnionTag() string { return "do" }

// Shapes lists the fields each kind of step takes.
func (Step) Shapes() map[string]any {
	type do struct {
		Do string `json:"do"`
	}
	return map[string]any{
		"deliver": struct {
			Do    string          `json:"do"`
			Event handler.Webhook `json:"event"`
			Fault handler.Fault   `json:"fault"`
		}{},
		"relay": struct {
			Do    string      `json:"do"`
			Crash *RelayCrash `json:"crash,omitempty"`
		}{},
		"provider-down": do{},
		"provider-up":   do{},
		"wait": struct {
			Do      string `json:"do"`
			Seconds int    `json:"seconds"`
		}{},
	}
}

// ExpectedRow is a committed outbox row as a schedule expects it: without its id, which only counts rows.
type ExpectedRow struct {
	Key      string               `json:"key"`
	Tenant   string               `json:"tenant"`
	TicketID int                  `json:"ticketId"`
	To       string               `json:"to"`
	Subject  string               `json:"subject"`
	State    database.OutboxState `json:"state"`
}

// Expectation is what one way of sending must leave: answers, committed rows, the inbox, every call.
type Expectation struct {
	Outcomes []handler.Outcome `json:"outcomes"`
	Tickets  []handler.Ticket  `json:"tickets"`
	Receipts []handler.Receipt `json:"receipts"`
	Outbox   []ExpectedRow     `json:"outbox"`
	Inbox    []Email           `json:"inbox"`
	Calls    []Call            `json:"calls"`
}

// Schedule is one file of schedules/outbox.
type Schedule struct {
	schedules.Named
	Title  string `json:"title"`
	Story  string `json:"story"`
	Steps  []Step `json:"steps"`
	Expect struct {
		OutboxRelay Expectation `json:"outbox-relay"`
		SendInside  Expectation `json:"send-inside"`
	} `json:"expect"`
}

// The two columns of an outbox schedule.
const (
	OutboxRelayColumn = "outbox-relay"
	SendInsideColumn  = "send-inside"
)

// Expected is the column of expectations for one way of sending.
func (s Schedule) Expected(column string) Expectation {
	if column == SendInsideColumn {
		return s.Expect.SendInside
	}
	return s.Expect.OutboxRelay
}

// Check holds a schedule to what its types can't say: crash points that name an email exactly when they
// need one, one outcome per delivery, an inbox that matches the calls answered "delivered", and no
// outbox for the sender that keeps none.
func (s Schedule) Check() error {
	fail := func(field, format string, args ...any) error {
		return &schedules.FieldError{Field: field, Problem: fmt.Sprintf(format, args...)}
	}
	deliveries := 0
	for i, step := range s.Steps {
		if step.Do == "deliver" {
			deliveries++
		}
		if step.Do != "relay" || step.Crash == nil {
			continue
		}
		field := fmt.Sprintf("steps[%d].crash.email", i)
		if step.Crash.After == "read" && step.Crash.Email != 0 {
			return fail(field, "a relay that dies after reading has sent no email yet: leave email out")
		}
		if step.Crash.After != "read" && step.Crash.Email == 0 {
			return fail(field, "missing: which email of the run does the relay die after (1 is the first)?")
		}
	}
	for _, column := range []string{OutboxRelayColumn, SendInsideColumn} {
		want := s.Expected(column)
		if len(want.Outcomes) != deliveries {
			return fail("expect."+column+".outcomes", "%d outcomes for %d deliveries", len(want.Outcomes), deliveries)
		}
		for i, outcome := range want.Outcomes {
			needsTicket := outcome.Kind == "created" || outcome.Kind == "replayed"
			if needsTicket != (outcome.TicketID != 0) {
				should := "must have ticketId null"
				if needsTicket {
					should = "needs a ticketId"
				}
				return fail(fmt.Sprintf("expect.%s.outcomes[%d].ticketId", column, i), "a %s outcome %s", outcome.Kind, should)
			}
		}
		var delivered, inbox []string
		for _, call := range want.Calls {
			if call.Answer == "delivered" {
				delivered = append(delivered, call.Key)
			}
		}
		for _, email := range want.Inbox {
			inbox = append(inbox, email.Key)
		}
		if strings.Join(delivered, "\n") != strings.Join(inbox, "\n") {
			return fail("expect."+column+".inbox", "the inbox (%s) must hold exactly the calls answered \"delivered\" (%s)", orNone(inbox, "empty"), orNone(delivered, "none"))
		}
	}
	if len(s.Expect.SendInside.Outbox) > 0 {
		return fail("expect.send-inside.outbox", "send-inside keeps no outbox: expect []")
	}
	return nil
}

func orNone(list []string, none string) string {
	if len(list) == 0 {
		return none
	}
	return strings.Join(list, ", ")
}

// LoadSchedules reads every file of schedules/outbox.
func LoadSchedules() ([]Schedule, error) {
	return schedules.Load[Schedule]("outbox")
}
