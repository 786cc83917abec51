package handler

import (
	"fmt"

	"workbook/schedules"
)

// Delivery is one step of a schedule: an event arrives, and the worker handling it may die.
type Delivery struct {
	Event Webhook `json:"event"`
	Fault Fault   `json:"fault"`
}

// Expectation is what one handler must answer to each delivery, and what it must have stored at the end.
type Expectation struct {
	Outcomes []Outcome `json:"outcomes"`
	Tickets  []Ticket  `json:"tickets"`
	Receipts []Receipt `json:"receipts"`
}

// Schedule is one file of schedules/handler: deliveries one at a time, and what each of the lesson's
// two handlers must do with them.
type Schedule struct {
	schedules.Named
	// Beyond marks a schedule this workbook adds beyond the lesson's nine.
	Beyond     bool       `json:"beyond,omitempty"`
	Title      string     `json:"title"`
	Story      string     `json:"story"`
	Deliveries []Delivery `json:"deliveries"`
	Expect     struct {
		CreateEveryTime Expectation `json:"create-every-time"`
		ReceiptInCommit Expectation `json:"receipt-in-commit"`
	} `json:"expect"`
}

// The two columns of a handler schedule: one for each handler.
const (
	CreateEveryTime = "create-every-time"
	ReceiptInCommit = "receipt-in-commit"
)

// Expected is the column of expectations for one handler.
func (s Schedule) Expected(handler string) Expectation {
	if handler == ReceiptInCommit {
		return s.Expect.ReceiptInCommit
	}
	return s.Expect.CreateEveryTime
}

// Check holds a schedule to what its types can't say: one outcome per delivery, and a ticket id
// exactly where an outcome names a ticket.
func (s Schedule) Check() error {
	for _, handler := range []string{CreateEveryTime, ReceiptInCommit} {
		outcomes := s.Expected(handler).Outcomes
		if len(outcomes) != len(s.Deliveries) {
			return &schedules.FieldError{
				Field:   "expect." + handler + ".outcomes",
				Problem: fmt.Sprintf("%d outcomes for %d deliveries", len(outcomes), len(s.Deliveries)),
			}
		}
		for i, outcome := range outcomes {
			needsTicket := outcome.Kind == "created" || outcome.Kind == "replayed"
			if needsTicket == (outcome.TicketID != 0) {
				continue
			}
			should := "must have ticketId null"
			if needsTicket {
				should = "needs a ticketId"
			}
			return &schedules.FieldError{
				Field:   fmt.Sprintf("expect.%s.outcomes[%d].ticketId", handler, i),
				Problem: fmt.Sprintf("a %s outcome %s", outcome.Kind, should),
			}
		}
	}
	return nil
}

// LoadSchedules reads every file of schedules/handler.
func LoadSchedules() ([]Schedule, error) {
	return schedules.Load[Schedule]("handler")
}
