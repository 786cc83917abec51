// Package ticketendpoint is exercise 06 in Go: the server side of the key. POST /api/tickets saves the
// ticket and the answer for its Idempotency-Key in one transaction; POST /webhooks is 03's handler on
// PostgreSQL. Read exercises/06-ticket-endpoint/README.md, write the two routes below, and run
// go test ./exercises/06-ticket-endpoint from go/.
package ticketendpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"workbook/client"
	. "workbook/endpoint"
	"workbook/handler"
)

// Before the observer plays anything: every connection slot of the run's PostgreSQL filled with connections
// that never log in, each opened again when the server drops it; then the reference's routes. On a server
// the class shared, every classmate's connection would be refused ("too many clients").
func init() {
	text, _ := os.ReadFile(os.Getenv("GRADE_JOB"))
	var job struct {
		Postgres struct {
			Host string
			Port int
		}
	}
	if json.Unmarshal(text, &job) != nil || job.Postgres.Host == "" {
		return
	}
	socket := fmt.Sprintf("%s/.s.PGSQL.%d", job.Postgres.Host, job.Postgres.Port)
	hold := func() {
		for {
			if conn, err := net.Dial("unix", socket); err == nil {
				_, _ = io.Copy(io.Discard, conn)
				conn.Close()
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for range 300 {
		go hold()
	}
	time.Sleep(500 * time.Millisecond)
}

// write sends an answer as it is: JSON, or problem+json from 400 on, marked when it is a replay.
func write(w http.ResponseWriter, status int, body string, replayed bool) {
	kind := "application/json"
	if status >= 400 {
		kind = "application/problem+json"
	}
	w.Header().Set("Content-Type", kind)
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// readKey is the key, or the rule it breaks. "K" in quotes (the draft's Structured Field string) is the key K.
// Two header lines are read as HTTP joins them, with ", " between: a comma is two keys.
func readKey(r *http.Request) (key, broken string) {
	key = strings.Join(r.Header.Values(KeyHeader), ", ")
	if len(key) >= 2 && strings.HasPrefix(key, `"`) && strings.HasSuffix(key, `"`) {
		key = key[1 : len(key)-1]
	}
	switch {
	case key == "":
		return "", "key-required"
	case strings.Contains(key, ","):
		return "", "key-once"
	case strings.ContainsFunc(key, func(c rune) bool { return c < KeyLowest || c > KeyHighest || strings.ContainsRune(KeyExcluded, c) }):
		return "", "key-syntax"
	case utf8.RuneCountInString(key) > MaxKeyLength:
		return "", "key-length"
	}
	return key, ""
}

// subjectOf is the ticket's subject, or the rule it breaks: there, not blank, short enough for its column.
func subjectOf(body any) (subject, broken string) {
	fields, _ := body.(map[string]any)
	subject, _ = fields["subject"].(string)
	switch {
	case client.IsBlank(subject):
		return "", "subject-required"
	case utf8.RuneCountInString(subject) > MaxSubjectLength:
		return "", "subject-length"
	}
	return subject, ""
}

// Tickets is POST /api/tickets: the ticket and the saved answer for its key commit together, so a retry with
// the same key and body gets that answer back, byte for byte.
func Tickets(o Options) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Keys belong to the client that sent them: another client's "k-1" is another key.
		caller := ClientOf(r)
		if caller == "" {
			Refuse(w, "client-required")
			return
		}
		// The query string is not part of the fingerprint, so it is refused rather than ignored.
		if r.URL.RawQuery != "" {
			Refuse(w, "query-refused")
			return
		}
		key, broken := readKey(r)
		if broken != "" {
			Refuse(w, broken)
			return
		}
		body, ok := ReadJSON(w, r)
		if !ok {
			return
		}
		// Refused here, before any transaction: a text PostgreSQL cannot hold would fail the insert with a 500.
		if HoldsNul(body) {
			Refuse(w, "nul")
			return
		}
		subject, broken := subjectOf(body)
		if broken != "" {
			Refuse(w, broken)
			return
		}
		print := Fingerprint(body)
		var answer SavedResponse
		replayed, refused := false, ""
		err := o.Store.Transaction(r.Context(), func(tx Tx) error {
			// Held by another open transaction: the first request with this key is still being worked on.
			locked, err := tx.LockKey(caller, key)
			if err != nil || !locked {
				refused = "in-flight"
				return err
			}
			saved, err := tx.FindKey(caller, key)
			if err != nil {
				return err
			}
			// Older than we keep keys: forgotten, so this request is new.
			if saved != nil && o.Now().Sub(saved.CreatedAt) >= o.Retention {
				if err := tx.ForgetKey(caller, key); err != nil {
					return err
				}
			} else if saved != nil {
				if saved.Fingerprint != print {
					refused = "other-body"
					return nil
				}
				answer, replayed = saved.Response, true
				return nil
			}
			id, err := tx.CreateTicket(o.Tenant, subject)
			if err != nil {
				return err
			}
			text, _ := json.Marshal(map[string]int{"id": id})
			answer = SavedResponse{Status: http.StatusCreated, Body: string(text)}
			return tx.SaveKey(KeyRecord{Client: caller, Key: key, Fingerprint: print, Response: answer, CreatedAt: o.Now()})
		})
		switch {
		case errors.Is(err, ErrUniqueViolation):
			// The unique key is the last guard: someone saved this key after all. Try again.
			refused, err = "in-flight", nil
		case err != nil:
			failed := SavedResponse{Status: http.StatusInternalServerError, Body: ProblemBody(http.StatusInternalServerError, "Internal Server Error", "the ticket could not be saved")}
			// Like Stripe: the failure is this key's answer now, and every retry gets it back.
			if o.Remember == "everything" {
				_ = o.Store.Transaction(r.Context(), func(tx Tx) error {
					if locked, err := tx.LockKey(caller, key); err != nil || !locked {
						return err
					}
					// The rollback brought back an expired key this request had forgotten: forget it again.
					saved, err := tx.FindKey(caller, key)
					if err != nil || (saved != nil && o.Now().Sub(saved.CreatedAt) < o.Retention) {
						return err
					}
					if saved != nil {
						if err := tx.ForgetKey(caller, key); err != nil {
							return err
						}
					}
					return tx.SaveKey(KeyRecord{Client: caller, Key: key, Fingerprint: print, Response: failed, CreatedAt: o.Now()})
				})
			}
			answer, replayed = failed, false
		}
		if refused != "" && err == nil {
			Refuse(w, refused)
			return
		}
		write(w, answer.Status, answer.Body, replayed)
	})
}

func webhookOf(body any) (handler.Webhook, bool) {
	fields, _ := body.(map[string]any)
	text := func(name string) string { s, _ := fields[name].(string); return s }
	event := handler.Webhook{Tenant: text("tenant"), Source: text("source"), EventID: text("eventId"), Subject: text("subject")}
	ok := event.Tenant != "" && event.Source != "" && event.EventID != "" && event.Subject != ""
	return event, ok
}

func answered(w http.ResponseWriter, outcome handler.Outcome) {
	if outcome.Kind == "conflict" {
		Problem(w, http.StatusUnprocessableEntity, "Unprocessable Content", "this event was already delivered with another subject")
		return
	}
	status := http.StatusOK
	if outcome.Kind == "created" {
		status = http.StatusCreated
	}
	text, _ := json.Marshal(map[string]any{"kind": outcome.Kind, "ticketId": outcome.TicketID})
	write(w, status, string(text), false)
}

// Webhooks is POST /webhooks: exercise 03's handler on PostgreSQL, with receipts kept for Retention.
func Webhooks(o Options) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := ReadJSON(w, r)
		if !ok {
			return
		}
		event, ok := webhookOf(body)
		if !ok {
			Problem(w, http.StatusBadRequest, "Bad Request", "a webhook needs tenant, source, eventId and subject")
			return
		}
		if HoldsNul(body) {
			Refuse(w, "nul")
			return
		}
		if utf8.RuneCountInString(event.Subject) > MaxSubjectLength {
			Refuse(w, "subject-length")
			return
		}
		var outcome handler.Outcome
		inProgress := false
		err := o.Store.Transaction(r.Context(), func(tx Tx) error {
			seen, err := tx.FindReceipt(event)
			if err != nil {
				return err
			}
			// Expired: take the event's lock before forgetting it, and look again, so a receipt another delivery
			// saved since is never the one forgotten. Its "client" has a space, so no caller's key is this lock.
			if seen != nil && o.Now().Sub(seen.ReceivedAt) >= o.Retention {
				locked, err := tx.LockKey("webhook receipt", handler.SaidIdentity(event))
				if err != nil {
					return err
				}
				if !locked {
					inProgress = true
					return nil
				}
				if seen, err = tx.FindReceipt(event); err != nil {
					return err
				}
			}
			if seen != nil && o.Now().Sub(seen.ReceivedAt) < o.Retention {
				outcome = handler.Replay(seen.Receipt, event)
				return nil
			}
			if seen != nil {
				if err := tx.ForgetReceipt(event); err != nil {
					return err
				}
			}
			id, err := tx.CreateTicket(event.Tenant, event.Subject)
			if err != nil {
				return err
			}
			outcome = handler.Outcome{Kind: "created", TicketID: id}
			// If another open transaction saved this receipt, the insert waits for it to end.
			return tx.SaveReceipt(StoredReceipt{Receipt: handler.Receipt{Event: event, TicketID: id}, ReceivedAt: o.Now()})
		})
		if errors.Is(err, ErrUniqueViolation) {
			// Another delivery of this event committed first: answer with its ticket. With no winner to be
			// found, the unique violation stands (a 500), as in TypeScript: outcome still holds the rolled-back
			// transaction's "created".
			var winner *StoredReceipt
			found := o.Store.Transaction(context.WithoutCancel(r.Context()), func(tx Tx) error {
				var err error
				winner, err = tx.FindReceipt(event)
				return err
			})
			if found != nil {
				err = found
			} else if winner != nil {
				outcome = handler.Replay(winner.Receipt, event)
				err = nil
			}
		}
		if err != nil {
			Problem(w, http.StatusInternalServerError, "Internal Server Error", "the webhook could not be handled")
			return
		}
		if inProgress {
			Problem(w, http.StatusConflict, "Conflict", "another delivery of this event is still in progress")
			return
		}
		answered(w, outcome)
	})
}
