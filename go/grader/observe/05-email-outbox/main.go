// Command 05-email-outbox observes a Go learner's exercise 05 for the grader, in the shapes
// grader/inside/05-email-outbox.observe.ts writes: EmailKey on given arguments, and HandleWithOutbox with
// Relay played on the outbox schedules and on the rounds of deliveries, relays, outages and crashes the
// grader drew, and Relay alone against a provider failing call by call. The judges (grader/checks/05-email-outbox.held.ts) read the answers, the rows, the inbox and
// the provider's calls; the stories only tell what happened.
package main

import (
	"encoding/json"
	"strings"

	"workbook/database"
	emailoutbox "workbook/exercises/05-email-outbox"
	"workbook/grader/observe"
	"workbook/handler"
	"workbook/outbox"
)

// outboxRelay is the learner's handler and relay, each with its stub kept.
func outboxRelay(stub *observe.Stub) outbox.Sender {
	return outbox.OutboxRelay(
		func(conn database.Connection, event handler.Webhook) (handler.Outcome, error) {
			return observe.Call(stub, func() (handler.Outcome, error) { return emailoutbox.HandleWithOutbox(conn, event) })
		},
		func(conn database.Connection, mail outbox.Mail) error {
			_, err := observe.Call(stub, func() (struct{}, error) { return struct{}{}, emailoutbox.Relay(conn, mail) })
			return err
		},
	)
}

// committed are the rows as harness/database's Contents: no rows is an empty list, never null.
func committed(c database.Contents) map[string]any {
	return map[string]any{
		"tickets":  append([]handler.Ticket{}, c.Tickets...),
		"receipts": append([]handler.Receipt{}, c.Receipts...),
		"outbox":   append([]database.OutboxRow{}, c.Outbox...),
	}
}

func read[T any](input json.RawMessage) (T, *observe.Thrown) {
	var value T
	if err := json.Unmarshal(input, &value); err != nil {
		return value, &observe.Thrown{Name: "Error", Message: "the input could not be read: " + err.Error()}
	}
	return value, nil
}

// stopped is what a run that stopped threw: the stub, when one stopped it, else the schedule's story.
func stopped(stub *observe.Stub, err error) observe.Thrown {
	if stub.Stopped() != nil {
		return observe.Said(*stub.Stopped())
	}
	return observe.Thrown{Name: "ScheduleMismatch", Message: err.Error()}
}

func main() {
	observe.Run(observe.Observers{
		"email-keys": func(input json.RawMessage) any {
			asked, bad := read[struct {
				Keys [][3]json.RawMessage `json:"keys"`
			}](input)
			if bad != nil {
				return *bad
			}
			keys := []string{}
			for _, key := range asked.Keys {
				var tenant, kind string
				var id int
				if json.Unmarshal(key[0], &tenant) != nil || json.Unmarshal(key[1], &id) != nil || json.Unmarshal(key[2], &kind) != nil {
					return observe.Thrown{Name: "Error", Message: "the input could not be read: a key is not [tenant, id, kind]"}
				}
				keys = append(keys, emailoutbox.EmailKey(tenant, id, kind))
			}
			return keys
		},
		"schedule": func(input json.RawMessage) any {
			schedule, bad := read[outbox.Schedule](input)
			if bad != nil {
				return *bad
			}
			var stub observe.Stub
			played, err := outbox.PlayForGrader(schedule, outboxRelay(&stub))
			if err != nil {
				return stopped(&stub, err)
			}
			outcomes := []map[string]any{}
			for _, o := range played.Outcomes {
				outcomes = append(outcomes, observe.Outcome(o))
			}
			return map[string]any{
				"outcomes":  outcomes,
				"committed": committed(played.Committed),
				"inbox":     append([]outbox.Email{}, played.Inbox...),
				"calls":     append([]outbox.Call{}, played.Calls...),
				"story":     strings.Split(played.Story, "\n"),
			}
		},
		"rounds": func(input json.RawMessage) any {
			drawn, bad := read[[]outbox.Round](input)
			if bad != nil {
				return *bad
			}
			var stub observe.Stub
			left, err := outbox.RoundsForGrader(outboxRelay(&stub), drawn)
			if err != nil {
				return observe.Thrown{Name: "Error", Message: err.Error()}
			}
			if stub.Stopped() != nil {
				return observe.Said(*stub.Stopped())
			}
			return map[string]any{
				"committed": committed(left.Committed),
				"inbox":     append([]outbox.Email{}, left.Inbox...),
				"problems":  append([]string{}, left.Problems...),
				"stories":   append([]string{}, left.Stories...),
			}
		},
		"relay-faults": func(input json.RawMessage) any {
			plan, bad := read[[]outbox.CallFault](input)
			if bad != nil {
				return *bad
			}
			var stub observe.Stub
			ran := outbox.PlayRelayRun(func(conn database.Connection, mail outbox.Mail) error {
				_, err := observe.Call(&stub, func() (struct{}, error) { return struct{}{}, emailoutbox.Relay(conn, mail) })
				return err
			}, plan)
			if stub.Stopped() != nil {
				return observe.Said(*stub.Stopped())
			}
			return ran
		},
	})
}
