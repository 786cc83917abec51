// Package outbox is exercise 05's harness in Go: the confirmation email a new ticket owes its tenant. It
// holds the fake mail provider (which remembers keys, so an email sent twice under one key is delivered
// once), the schedules/outbox loader, the player and judge, the random property and the crash points;
// exercise 05's tests (go/exercises/05-email-outbox) call it with the sender under test. The given
// SendInside sends from inside the transaction; the learner's HandleWithOutbox saves an outbox row in the
// same commit as the ticket, and Relay sends each pending row after it.
package outbox

import (
	"errors"
	"fmt"
)

// Email is an email as the provider takes it: its own idempotency key, who gets it, about which ticket.
type Email struct {
	Key      string `json:"key"`
	To       string `json:"to"`
	TicketID int    `json:"ticketId"`
	Subject  string `json:"subject"`
}

// CallAnswer is what the provider answered one call.
type CallAnswer string

// Values lists the answers a schedule may name.
func (CallAnswer) Values() []string { return []string{"delivered", "duplicate", "down", "refused"} }

// Call is one call to the provider, and what it answered.
type Call struct {
	Key    string     `json:"key"`
	Answer CallAnswer `json:"answer"`
}

// Accepted is the provider's yes: the message, and whether the key named one it had already delivered.
type Accepted struct {
	MessageID string
	Duplicate bool
}

// ErrProviderDown: nothing was delivered, and sending again later is safe.
var ErrProviderDown = errors.New("the mail provider is down")

// ErrKeyReused: the same key came back with a different email, refused as a 422 would be.
var ErrKeyReused = errors.New("the key was already used for another email")

// DefaultWindowSeconds is how long the provider remembers a key: a day, as many real providers do.
const DefaultWindowSeconds = 24 * 60 * 60

type delivery struct {
	email     Email
	messageID string
	at        int
}

// MailProvider is a fake provider that behaves like real ones where it matters: it takes an idempotency
// key with each email, delivers at most one email per key within its window, can be down, and keeps an
// inbox. Time is Now, in seconds, moved by hand. Use NewMailProvider.
type MailProvider struct {
	Now           int
	WindowSeconds int
	down          bool
	delivered     []delivery
	calls         []Call
	keys          map[string]delivery
}

// NewMailProvider returns a provider that is up, with the default window, at time 0.
func NewMailProvider() *MailProvider {
	return &MailProvider{WindowSeconds: DefaultWindowSeconds, keys: map[string]delivery{}}
}

// Send delivers the email, unless its key already delivered one within the window: then it answers as
// it did then (or refuses, if the email is another one).
func (p *MailProvider) Send(email Email) (Accepted, error) {
	if p.down {
		p.calls = append(p.calls, Call{email.Key, "down"})
		return Accepted{}, fmt.Errorf("%w: %s was not delivered", ErrProviderDown, email.Key)
	}
	if earlier, ok := p.keys[email.Key]; ok && p.Now-earlier.at < p.WindowSeconds {
		if earlier.email != email {
			p.calls = append(p.calls, Call{email.Key, "refused"})
			return Accepted{}, fmt.Errorf("%w: %s already sent #%d %q", ErrKeyReused, email.Key, earlier.email.TicketID, earlier.email.Subject)
		}
		p.calls = append(p.calls, Call{email.Key, "duplicate"})
		return Accepted{earlier.messageID, true}, nil
	}
	d := delivery{email, fmt.Sprintf("msg-%d", len(p.delivered)+1), p.Now}
	p.delivered = append(p.delivered, d)
	p.keys[email.Key] = d
	p.calls = append(p.calls, Call{email.Key, "delivered"})
	return Accepted{d.messageID, false}, nil
}

// GoDown makes every later Send fail, delivering nothing; ComeBack ends that.
func (p *MailProvider) GoDown() { p.down = true }

// ComeBack makes the provider answer again.
func (p *MailProvider) ComeBack() { p.down = false }

// Inbox returns every email delivered, in order.
func (p *MailProvider) Inbox() []Email {
	var emails []Email
	for _, d := range p.delivered {
		emails = append(emails, d.email)
	}
	return emails
}

// Calls returns every call, in order, with what the provider answered.
func (p *MailProvider) Calls() []Call { return append([]Call{}, p.calls...) }

// Mail is what a handler or a relay is given to send mail with: the provider's Send, and nothing else.
type Mail interface {
	Send(email Email) (Accepted, error)
}
