package outbox

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"workbook/core"
	"workbook/database"
	"workbook/handler"
	"workbook/scheduler"
	"workbook/schedules"
)

// Sender is one column of an outbox schedule: a handler, and the relay that sends after the commit
// (nil: none). OutboxRelay and Inside make one.
type Sender struct {
	column string
	handle func(database.Connection, handler.Webhook, Mail) (handler.Outcome, error)
	relay  func(database.Connection, Mail) error
}

// world is one database and one mail provider, shared by every worker a schedule starts.
type world struct {
	db       database.Shared
	provider *MailProvider
}

// workerMail sends through the provider as a step of its worker outside the database, and a trace line.
type workerMail struct {
	w    world
	conn database.Connection
}

func (m workerMail) Send(email Email) (Accepted, error) {
	return database.Outside(m.conn, "send-email", func() (Accepted, error) {
		who := m.conn.Name()
		accepted, err := m.w.provider.Send(email)
		said := fmt.Sprintf("%s sends the email %s: ", who, saidEmail(email))
		switch {
		case err != nil:
			said += err.Error()
		case accepted.Duplicate:
			said += "the provider recognised the key: a duplicate, not delivered again"
		default:
			said += "the provider delivered it"
		}
		m.w.db.Say(who, said+".")
		return accepted, err
	})
}

func deliveryCrash(fault handler.Fault) *scheduler.CrashPoint {
	switch fault {
	case handler.BeforeCommit:
		return &scheduler.CrashPoint{When: "before-commit"}
	case handler.AfterCommit:
		return &scheduler.CrashPoint{When: "before-answering"}
	}
	return nil
}

func relayCrash(crash *RelayCrash) *scheduler.CrashPoint {
	switch {
	case crash == nil:
		return nil
	case crash.After == "read":
		return &scheduler.CrashPoint{When: "after", Operation: "pending-outbox"}
	case crash.After == "send":
		return &scheduler.CrashPoint{When: "after", Operation: "send-email", Nth: crash.Email}
	default:
		return &scheduler.CrashPoint{When: "after", Operation: "mark-sent", Nth: crash.Email}
	}
}

type played struct {
	outcomes  []handler.Outcome
	committed database.Contents
	inbox     []Email
	calls     []Call
	story     string
	problem   string // the code failed, or the run could not go on
}

func play(s Schedule, send Sender) played {
	return playOn(database.New(), s, send)
}

// playOn plays a schedule on db: the in-memory model, or PostgreSQL.
func playOn(db database.Shared, s Schedule, send Sender) played {
	w := world{db, NewMailProvider()}
	var out played
	deliveries, relays := 0, 0
	stop := func(i int, who string, err error) played {
		out.problem = threw(s, i, who, err)
		out.story = database.TellTrace(w.db.TraceLines())
		return out
	}
	for i, step := range s.Steps {
		switch step.Do {
		case "deliver":
			deliveries++
			name := fmt.Sprintf("delivery %d", deliveries)
			event := *step.Event
			run, err := scheduler.RunWorkers(w.db, []scheduler.WorkerPlan[handler.Outcome]{{
				Name: name,
				Run: func(conn database.Connection) (handler.Outcome, error) {
					return send.handle(conn, event, workerMail{w, conn})
				},
				Crash: deliveryCrash(step.Fault),
			}}, scheduler.OneAtATime(), scheduler.Options[handler.Outcome]{Tell: func(o handler.Outcome) string { return "answers: " + saidOutcome(o) }})
			if err != nil {
				return stop(i, "scheduler", err)
			}
			ending := run.Endings[name]
			switch ending.Kind {
			case scheduler.Failed:
				return stop(i, "handler", ending.Err)
			case scheduler.Answered:
				out.outcomes = append(out.outcomes, ending.Value)
			default:
				out.outcomes = append(out.outcomes, handler.Crashed)
			}
		case "relay":
			relays++
			name := fmt.Sprintf("relay %d", relays)
			if send.relay == nil {
				w.db.Say(name, send.column+" has no relay: nothing runs.")
				continue
			}
			run, err := scheduler.RunWorkers(w.db, []scheduler.WorkerPlan[struct{}]{{
				Name: name,
				Run: func(conn database.Connection) (struct{}, error) {
					return struct{}{}, send.relay(conn, workerMail{w, conn})
				},
				Crash: relayCrash(step.Crash),
			}}, scheduler.OneAtATime(), scheduler.Options[struct{}]{Tell: func(struct{}) string { return "is done" }})
			if err != nil {
				return stop(i, "scheduler", err)
			}
			if ending := run.Endings[name]; ending.Kind == scheduler.Failed {
				return stop(i, "relay", ending.Err)
			}
		case "provider-down":
			w.provider.GoDown()
		case "provider-up":
			w.provider.ComeBack()
		case "wait":
			w.provider.Now += step.Seconds
		}
	}
	out.committed = w.db.Committed()
	out.inbox = w.provider.Inbox()
	out.calls = w.provider.Calls()
	out.story = database.TellTrace(w.db.TraceLines())
	return out
}

func saidOutcome(o handler.Outcome) string {
	switch {
	case o.Kind == "created" || o.Kind == "replayed":
		return fmt.Sprintf("%s #%d", o.Kind, o.TicketID)
	case o.Kind == "conflict":
		return "refused (conflict)"
	case o.Kind == "crashed":
		return "crashed (no answer)"
	}
	return fmt.Sprintf("%s with ticket id %d", o.Kind, o.TicketID)
}

// saidEmail: "#1 to acme: Cannot sign in [ticket-confirmation/acme/1]".
func saidEmail(e Email) string {
	return fmt.Sprintf("#%d to %s: %s [%s]", e.TicketID, e.To, e.Subject, e.Key)
}

func saidRow(r ExpectedRow) string {
	tenant := ""
	if r.Tenant != r.To {
		tenant = " (tenant " + r.Tenant + ")"
	}
	return fmt.Sprintf("#%d to %s%s: %s [%s] %s", r.TicketID, r.To, tenant, r.Subject, r.Key, r.State)
}

// describeStep: "delivery 2 (acme/helpdesk/evt-42 again, after a lost acknowledgment)", "relay run 1".
func describeStep(s Schedule, i int) string {
	step := s.Steps[i]
	count := func(do string) int {
		n := 0
		for _, earlier := range s.Steps[:i+1] {
			if earlier.Do == do {
				n++
			}
		}
		return n
	}
	switch step.Do {
	case "deliver":
		// Counted among the deliveries alone, and told as the handler schedules tell theirs.
		var deliveries []handler.Delivery
		for _, earlier := range s.Steps[:i+1] {
			if earlier.Do == "deliver" {
				deliveries = append(deliveries, handler.Delivery{Event: *earlier.Event, Fault: earlier.Fault})
			}
		}
		return handler.DescribeDelivery(deliveries, len(deliveries)-1)
	case "relay":
		said := fmt.Sprintf("relay run %d", count("relay"))
		if c := step.Crash; c != nil {
			switch c.After {
			case "read":
				said += " (the relay dies after reading the pending rows, before sending anything)"
			case "send":
				said += fmt.Sprintf(" (the relay dies right after the provider accepted its email %d, before marking it sent)", c.Email)
			case "mark":
				said += fmt.Sprintf(" (the relay dies right after marking its email %d sent)", c.Email)
			}
		}
		return said
	case "wait":
		return fmt.Sprintf("%d seconds pass", step.Seconds)
	case "provider-down":
		return "the provider goes down"
	}
	return "the provider comes back"
}

func lines[T any](items []T, say func(T) string) []string {
	var out []string
	for _, item := range items {
		out = append(out, say(item))
	}
	return out
}

// judge returns "" when the played schedule left what the column expects; otherwise the story
// harness/outbox/play.ts's judgeOutbox tells, in its words: the schedule and its steps, the first wrong
// answer, a wrong inbox or what differs, side by side, and what happened step by step.
func judge(s Schedule, column string, got played) string {
	var steps []string
	for i := range s.Steps {
		steps = append(steps, fmt.Sprintf("  %d. %s", i+1, describeStep(s, i)))
	}
	top := fmt.Sprintf("%s\nSteps:\n%s\n\n", outboxHeading(s), strings.Join(steps, "\n"))
	if got.problem != "" {
		return fmt.Sprintf("%s%s\n\nWhat happened:\n%s", top, got.problem, got.story)
	}
	want := s.Expected(column)
	rows := []schedules.Row{
		{Label: "tickets", Expected: lines(want.Tickets, saidTicket), Actual: lines(got.committed.Tickets, saidTicket)},
		{Label: "receipts", Expected: lines(want.Receipts, saidReceipt), Actual: lines(got.committed.Receipts, saidReceipt)},
		{Label: "outbox", Expected: lines(want.Outbox, saidRow), Actual: lines(got.committed.Outbox, func(r database.OutboxRow) string {
			return saidRow(ExpectedRow{r.Key, r.Tenant, r.TicketID, r.To, r.Subject, r.State})
		})},
		{Label: "inbox", Expected: lines(want.Inbox, saidEmail), Actual: lines(got.inbox, saidEmail)},
		{Label: "calls", Expected: lines(want.Calls, func(c Call) string { return c.Key + " " + string(c.Answer) }), Actual: lines(got.calls, func(c Call) string { return c.Key + " " + string(c.Answer) })},
	}
	tail := fmt.Sprintf("\n\nAfter the last step:\n%s\n\nWhat happened:\n%s", schedules.SideBySide(rows), got.story)
	for i, d := 0, 0; i < len(s.Steps); i++ {
		if s.Steps[i].Do != "deliver" {
			continue
		}
		if d >= len(got.outcomes) || want.Outcomes[d] != got.outcomes[d] {
			said := "returned nothing"
			if d < len(got.outcomes) {
				said = saidOutcome(got.outcomes[d])
			}
			return fmt.Sprintf("%s%s: expected %s, the handler %s.%s", top, describeStep(s, i), saidOutcome(want.Outcomes[d]), said, tail)
		}
		d++
	}
	if problems := inboxProblems(want.Inbox, got.inbox, ticketIDs(got.committed.Tickets)); len(problems) > 0 {
		return fmt.Sprintf("%sThe inbox is wrong:\n  %s%s", top, strings.Join(problems, "\n  "), tail)
	}
	var differ []string
	for _, row := range rows {
		if !slices.Equal(row.Expected, row.Actual) {
			differ = append(differ, row.Label)
		}
	}
	if len(differ) == 0 {
		return ""
	}
	verb := "differ"
	if len(differ) == 1 && !strings.HasSuffix(differ[0], "s") {
		verb = "differs"
	}
	return fmt.Sprintf("%sEvery answer and every email was right, but after the last step the %s %s.%s", top, strings.Join(differ, " and "), verb, tail)
}

func outboxHeading(s Schedule) string {
	return fmt.Sprintf("Schedule %q (%s): %s", s.Name, s.Title, s.Story)
}

// inboxProblems says, ticket by ticket, how the inbox differs from the expected one: an email missing, one
// about a ticket that does not exist, one doubled, or another email than expected.
func inboxProblems(expected, actual []Email, ticketIDs []int) []string {
	var ids []int
	for _, e := range slices.Concat(expected, actual) {
		if !slices.Contains(ids, e.TicketID) {
			ids = append(ids, e.TicketID)
		}
	}
	slices.Sort(ids)
	about := func(emails []Email, id int) []string {
		var said []string
		for _, e := range emails {
			if e.TicketID == id {
				said = append(said, saidEmail(e))
			}
		}
		return said
	}
	list := func(said []string) string {
		return strings.Join(lines(said, func(l string) string { return "\n      " + l }), "")
	}
	var problems []string
	for _, id := range ids {
		wanted, got := about(expected, id), about(actual, id)
		switch {
		case slices.Equal(wanted, got):
		case len(got) == 0:
			problems = append(problems, "missing: the email "+strings.Join(wanted, ", "))
		case !slices.Contains(ticketIDs, id):
			problems = append(problems, fmt.Sprintf("%s about ticket #%d, which does not exist:%s", counted(len(got), "email"), id, list(got)))
		case len(got) > len(wanted):
			were := "were"
			if len(wanted) == 1 {
				were = "was"
			}
			problems = append(problems, fmt.Sprintf("doubled: ticket #%d got %d emails where %d %s expected:%s", id, len(got), len(wanted), were, list(got)))
		default:
			problems = append(problems, fmt.Sprintf("ticket #%d got another email than expected:\n    expected%s\n    delivered%s", id, list(wanted), list(got)))
		}
	}
	return problems
}

// threw says where a worker's error stopped the schedule, and what: a stub's message as it is, any other
// error with its name and the lesson's usual cause, as harness/outbox/play.ts's threw does.
func threw(s Schedule, i int, who string, err error) string {
	where := fmt.Sprintf("step %d, %s, of schedule %q", i+1, describeStep(s, i), s.Name)
	var stub core.NotWrittenYet
	if errors.As(err, &stub) {
		return fmt.Sprintf("%s\n(stopped at %s)", stub.Error(), where)
	}
	// A handler or relay that came back inside its transaction (scheduler/left_open.go).
	var open *scheduler.LeftOpen
	if errors.As(err, &open) {
		return fmt.Sprintf("%s:\n%v", where, err)
	}
	advice := ""
	var dbErr *database.Error
	switch {
	case who == "relay" && (errors.Is(err, ErrProviderDown) || errors.Is(err, ErrKeyReused)):
		advice = "\nA relay does not throw the provider's refusals: when the provider is down or refuses a key, it leaves the row pending for the next run and goes on to the next row."
	case errors.As(err, &dbErr) && dbErr.Code == database.UniqueViolation && strings.Contains(dbErr.Message, "outbox_key"):
		advice = "\nTwo tickets asked for the same email key. The key must name the ticket (its tenant, its id, the kind of email), not the delivery or its words."
	}
	return fmt.Sprintf("%s: your %s threw %s: %v%s", where, who, errorName(err), err, advice)
}

// errorName is an error's name as TypeScript's classes say it: ProviderDown, UniqueViolation, …
func errorName(err error) string {
	var dbErr *database.Error
	switch {
	case errors.Is(err, ErrProviderDown):
		return "ProviderDown"
	case errors.Is(err, ErrKeyReused):
		return "KeyReused"
	case errors.As(err, &dbErr):
		words := strings.Split(string(dbErr.Code), "-")
		for i, w := range words {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
		return strings.Join(words, "")
	}
	return "an error"
}

func ticketIDs(tickets []handler.Ticket) []int {
	var ids []int
	for _, t := range tickets {
		ids = append(ids, t.ID)
	}
	return ids
}

func counted(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func saidTicket(t handler.Ticket) string { return fmt.Sprintf("#%d %s: %s", t.ID, t.Tenant, t.Subject) }

func saidReceipt(r handler.Receipt) string {
	return fmt.Sprintf("%s %q → #%d", handler.SaidIdentity(r.Event), r.Subject, r.TicketID)
}
