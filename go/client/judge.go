package client

import (
	"fmt"
	"maps"
	"strings"

	"workbook/handler"
	"workbook/schedules"
)

func saidReply(status, ticketID int, replayed, arrived bool) string {
	if !arrived {
		return "never arrived"
	}
	said := fmt.Sprint(status)
	if ticketID != 0 {
		said += fmt.Sprintf(" #%d", ticketID)
	}
	if replayed {
		said += " replayed"
	}
	return said
}

func saidExpectedReply(r *ExpectedReply) string {
	if r == nil {
		return saidReply(0, 0, false, false)
	}
	return saidReply(r.Status, r.TicketID, r.Replayed, true)
}

func saidActualReply(r *Reply) string {
	if r == nil {
		return saidReply(0, 0, false, false)
	}
	return saidReply(r.Status, r.TicketID, r.Replayed, true)
}

var fates = map[Fate]string{
	"answered":     "the reply arrives",
	"answer-lost":  "the reply is lost",
	"request-lost": "the request is lost on the way",
	"held":         "the endpoint is still working on it",
	"server-fails": "the endpoint fails before saving anything",
}

// describeStep says a step in the lesson's words: "step 2 (send from support: the reply is lost)".
func describeStep(j Journey, i int) string {
	step := j.Steps[i]
	var said string
	switch step.Do {
	case "type":
		said = fmt.Sprintf("type %q into %s", *step.Subject, *step.Form)
	case "edit":
		said = fmt.Sprintf("edit %s's subject to %q", *step.Form, *step.Subject)
	case "send":
		said = fmt.Sprintf("send from %s: %s", *step.Form, fates[*step.Fate])
	case "release":
		said = fmt.Sprintf("request %d finishes: %s", *step.Number, fates[*step.Fate])
	case "reload":
		said = "the tab reloads"
	case "store":
		said = fmt.Sprintf("something else writes %q to %s", *step.Value, *step.Item)
	case "break-storage":
		said = "the storage starts failing, as a full or refused one does"
	}
	if step.Note != "" {
		said += "; " + step.Note
	}
	return fmt.Sprintf("step %d (%s)", i+1, said)
}

// sendSteps are the journey's send steps: request n is made by the n-th.
func sendSteps(j Journey) []Step {
	var sends []Step
	for _, step := range j.Steps {
		if step.Do == "send" {
			sends = append(sends, step)
		}
	}
	return sends
}

func requestProblems(j Journey, number int, got played, withReply bool) []string {
	want := sendSteps(j)[number-1].Request
	actual := got.requests[number-1]
	var problems []string
	if actual.key != want.Key {
		problems = append(problems, fmt.Sprintf("request %d carried %q; expected %q.", number, actual.key, want.Key))
	}
	if !maps.Equal(actual.body, Fields{"subject": want.Body.Subject}) {
		problems = append(problems, fmt.Sprintf("request %d sent %v; expected %q.", number, actual.body, want.Body.Subject))
	}
	if withReply && saidActualReply(actual.reply) != saidExpectedReply(want.Reply) {
		problems = append(problems, fmt.Sprintf("the endpoint replied %s to request %d; expected %s.", saidActualReply(actual.reply), number, saidExpectedReply(want.Reply)))
	}
	return problems
}

// judge returns "" when the journey went as its file says; otherwise the first step that went another
// way, what was expected there, and the journey so far side by side.
func judge(j Journey, got played) string {
	heading := fmt.Sprintf("Journey %q (%s): %s", j.Name, j.Title, j.Story)
	for i, step := range j.Steps {
		var problems []string
		switch step.Do {
		case "send":
			problems = requestProblems(j, got.steps[i].request.number, got, *step.Fate != "held")
		case "release":
			problems = requestProblems(j, *step.Number, got, true)
		case "type", "edit":
			if wantLocked := step.Locked != nil && *step.Locked; got.steps[i].locked != wantLocked {
				if got.steps[i].locked {
					problems = append(problems, fmt.Sprintf("the form refused this %s: its fields were still locked (it showed sending or unsure); expected it to take it.", step.Do))
				} else {
					problems = append(problems, fmt.Sprintf("the form took this %s; expected it refused: the fields stay locked while the outcome is unknown.", step.Do))
				}
			}
		}
		for _, form := range j.Forms {
			if want, shown := step.Shows[form].String(), got.steps[i].shows[form].String(); want != shown {
				problems = append(problems, fmt.Sprintf("%s shows %q; expected %q.", form, shown, want))
			}
		}
		if len(problems) > 0 {
			return fmt.Sprintf("%s\n%s:\n  - %s\n\n%s", heading, describeStep(j, i), strings.Join(problems, "\n  - "), transcript(j, got, i))
		}
	}
	if strings.Join(saidTickets(j.Tickets), "\n") != strings.Join(saidTickets(got.tickets), "\n") {
		return fmt.Sprintf("%s\nEvery step went as expected, but the tickets differ at the end:\n\n%s", heading, transcript(j, got, len(j.Steps)-1))
	}
	return ""
}

func saidTickets(tickets []handler.Ticket) []string {
	var lines []string
	for _, t := range tickets {
		lines = append(lines, fmt.Sprintf("#%d %s: %s", t.ID, t.Tenant, t.Subject))
	}
	return lines
}

// transcript is the journey up to step upTo, expected beside actual, one row per step, and the tickets.
func transcript(j Journey, got played, upTo int) string {
	var rows []schedules.Row
	for i, step := range j.Steps[:upTo+1] {
		var want, actual []string
		switch step.Do {
		case "send":
			r := step.Request
			want = append(want, fmt.Sprintf("%s %q → %s", r.Key, r.Body.Subject, saidExpectedReply(r.Reply)))
			s := got.steps[i].request
			actual = append(actual, fmt.Sprintf("%s %q → %s", s.key, s.body["subject"], saidActualReply(s.reply)))
		case "release":
			want = append(want, fmt.Sprintf("request %d → %s", *step.Number, saidExpectedReply(sendSteps(j)[*step.Number-1].Request.Reply)))
			actual = append(actual, fmt.Sprintf("request %d → %s", *step.Number, saidActualReply(got.requests[*step.Number-1].reply)))
		}
		for _, form := range j.Forms {
			want = append(want, form+": "+step.Shows[form].String())
			actual = append(actual, form+": "+got.steps[i].shows[form].String())
		}
		rows = append(rows, schedules.Row{Label: fmt.Sprintf("step %d %s", i+1, step.Do), Expected: want, Actual: actual})
	}
	rows = append(rows, schedules.Row{Label: "tickets (end)", Expected: saidTickets(j.Tickets), Actual: saidTickets(got.tickets)})
	return schedules.SideBySide(rows)
}
