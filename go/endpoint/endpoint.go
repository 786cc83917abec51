package endpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"workbook/client"
	"workbook/handler"
)

// MaxKeyLength is the longest Idempotency-Key the endpoint takes, in code points: 04's rule, kept in client.
const MaxKeyLength = client.MaxKeyLength

// MaxBodyBytes is the largest request body the server reads.
const MaxBodyBytes = 64 * 1024

// Options are what both routes work with.
type Options struct {
	Store     *Store
	Remember  Remember
	Retention time.Duration
	Now       func() time.Time
	Tenant    string
}

// problemBody is an RFC 9457 problem, as text.
func problemBody(status int, title, detail string) string {
	text, _ := json.Marshal(map[string]any{"type": "about:blank", "title": title, "status": status, "detail": detail})
	return string(text)
}

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

func problem(w http.ResponseWriter, status int, title, detail string) {
	write(w, status, problemBody(status, title, detail), false)
}

// readJSON decodes the body, or answers the 4xx and returns false: a wrong content type, too big, not JSON.
func readJSON(w http.ResponseWriter, r *http.Request) (any, bool) {
	kind, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if kind != "application/json" {
		problem(w, http.StatusUnsupportedMediaType, "Unsupported Media Type", `send the body as application/json, not "`+kind+`"`)
		return nil, false
	}
	text, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		problem(w, http.StatusRequestEntityTooLarge, "Content Too Large", "the body is over 65536 bytes")
		return nil, false
	}
	var body any
	if err := json.Unmarshal(text, &body); err != nil {
		problem(w, http.StatusBadRequest, "Bad Request", "the body is not valid JSON")
		return nil, false
	}
	return body, true
}

// Fingerprint is the same for two bodies that say the same thing: encoding/json writes map keys sorted.
func Fingerprint(body any) string {
	text, _ := json.Marshal(body)
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:])
}

// keyProblem says why a key can't be used, or "" when it can.
func keyProblem(key string, present bool) string {
	switch {
	case !present || key == "":
		return "the Idempotency-Key header is required"
	case client.KeyLength(key) > MaxKeyLength:
		return "the Idempotency-Key header is longer than 255 characters"
	case strings.ContainsFunc(key, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "the Idempotency-Key header holds control characters"
	}
	return ""
}

func subjectOf(body any) string {
	fields, _ := body.(map[string]any)
	subject, _ := fields["subject"].(string)
	if client.IsBlank(subject) {
		return ""
	}
	return subject
}

var inFlight = problemBody(http.StatusConflict, "Conflict", "a request with this Idempotency-Key is still in progress")

// Tickets is POST /api/tickets: the ticket and the saved answer for its key commit together, so a retry with
// the same key and body gets that answer back, byte for byte.
func Tickets(o Options) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		values, present := r.Header["Idempotency-Key"]
		key := ""
		if present {
			key = values[0]
		}
		if why := keyProblem(key, present); why != "" {
			problem(w, http.StatusBadRequest, "Bad Request", why)
			return
		}
		body, ok := readJSON(w, r)
		if !ok {
			return
		}
		subject := subjectOf(body)
		if subject == "" {
			problem(w, http.StatusBadRequest, "Bad Request", "the ticket needs a subject")
			return
		}
		print := Fingerprint(body)
		var answer SavedResponse
		replayed := false
		err := o.Store.Transaction(r.Context(), func(tx *Tx) error {
			// Held by another open transaction: the first request with this key is still being worked on.
			locked, err := tx.LockKey(key)
			if err != nil || !locked {
				answer = SavedResponse{http.StatusConflict, inFlight}
				return err
			}
			saved, err := tx.FindKey(key)
			if err != nil {
				return err
			}
			// Older than we keep keys: forgotten, so this request is new.
			if saved != nil && o.Now().Sub(saved.CreatedAt) >= o.Retention {
				if err := tx.ForgetKey(key); err != nil {
					return err
				}
			} else if saved != nil {
				if saved.Fingerprint != print {
					answer = SavedResponse{http.StatusUnprocessableEntity, problemBody(http.StatusUnprocessableEntity, "Unprocessable Content", "this Idempotency-Key was used with another body")}
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
			answer = SavedResponse{http.StatusCreated, string(text)}
			return tx.SaveKey(KeyRecord{Key: key, Fingerprint: print, Response: answer, CreatedAt: o.Now()})
		})
		switch {
		case errors.Is(err, ErrUniqueViolation):
			// The unique key is the last guard: someone saved this key after all. Try again.
			answer, replayed = SavedResponse{http.StatusConflict, inFlight}, false
		case err != nil:
			failed := SavedResponse{http.StatusInternalServerError, problemBody(http.StatusInternalServerError, "Internal Server Error", "the ticket could not be saved")}
			// Like Stripe: the failure is this key's answer now, and every retry gets it back.
			if o.Remember == "everything" {
				_ = o.Store.Transaction(r.Context(), func(tx *Tx) error {
					if locked, err := tx.LockKey(key); err != nil || !locked {
						return err
					}
					// The rollback brought back an expired key this request had forgotten: forget it again.
					saved, err := tx.FindKey(key)
					if err != nil || (saved != nil && o.Now().Sub(saved.CreatedAt) < o.Retention) {
						return err
					}
					if saved != nil {
						if err := tx.ForgetKey(key); err != nil {
							return err
						}
					}
					return tx.SaveKey(KeyRecord{Key: key, Fingerprint: print, Response: failed, CreatedAt: o.Now()})
				})
			}
			answer, replayed = failed, false
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
		problem(w, http.StatusUnprocessableEntity, "Unprocessable Content", "this event was already delivered with another subject")
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
		body, ok := readJSON(w, r)
		if !ok {
			return
		}
		event, ok := webhookOf(body)
		if !ok {
			problem(w, http.StatusBadRequest, "Bad Request", "a webhook needs tenant, source, eventId and subject")
			return
		}
		var outcome handler.Outcome
		inProgress := false
		err := o.Store.Transaction(r.Context(), func(tx *Tx) error {
			seen, err := tx.FindReceipt(event)
			if err != nil {
				return err
			}
			// Expired: take the event's lock before forgetting it, and look again, so a receipt another delivery
			// saved since is never the one forgotten.
			if seen != nil && o.Now().Sub(seen.ReceivedAt) >= o.Retention {
				locked, err := tx.LockKey("receipt " + handler.SaidIdentity(event))
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
			return tx.SaveReceipt(StoredReceipt{Receipt: handler.Receipt{Webhook: event, TicketID: id}, ReceivedAt: o.Now()})
		})
		if errors.Is(err, ErrUniqueViolation) {
			// Another delivery of this event committed first: answer with its ticket. With no winner to be
			// found, the unique violation stands (a 500), as in TypeScript: outcome still holds the rolled-back
			// transaction's "created".
			var winner *StoredReceipt
			found := o.Store.Transaction(context.WithoutCancel(r.Context()), func(tx *Tx) error {
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
			problem(w, http.StatusInternalServerError, "Internal Server Error", "the webhook could not be handled")
			return
		}
		if inProgress {
			problem(w, http.StatusConflict, "Conflict", "another delivery of this event is still in progress")
			return
		}
		answered(w, outcome)
	})
}
