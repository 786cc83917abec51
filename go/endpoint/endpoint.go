package endpoint

// What exercise 06's routes work with, the Go twin of harness/endpoint/contract.ts: their Options (the store
// they write through, the policy, the retention, the clock), and the small helpers both routes share. The
// routes themselves are the learner's (go/exercises/06-ticket-endpoint/endpoint.go), handed to the harness
// as a Code:
//
//	func Tickets(o Options) http.Handler {
//		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
//			caller := ClientOf(r)             // Authorization: Bearer <client>, or "": Refuse(w, "client-required")
//			body, ok := ReadJSON(w, r)        // the parsed body, or false: the 4xx is already answered
//			print := Fingerprint(body)        // the same for two bodies that say the same thing
//			err := o.Store.Transaction(r.Context(), func(tx Tx) error {
//				locked, err := tx.LockKey(caller, key) // false: another open transaction holds it: "in-flight"
//				saved, err := tx.FindKey(caller, key)  // *KeyRecord, or nil
//				id, err := tx.CreateTicket(o.Tenant, subject)
//				return tx.SaveKey(KeyRecord{…, CreatedAt: o.Now()}) // ErrUniqueViolation when it is saved
//			})                                         // commits when work returns nil, else rolls back
//		})
//	}
//
// Refuse(w, name) answers one of rules.go's refusals as problem+json, with a Link to the README section that
// explains it and Retry-After on a 409; Problem(w, status, title, detail) any other problem, and
// ProblemBody its text (for an answer to save). HoldsNul says whether a body holds U+0000, which PostgreSQL
// cannot store. Nothing here knows about the schedules: faults are the harness's business (store.go).

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"workbook/client"
)

// MaxKeyLength is the longest Idempotency-Key the endpoint takes, in code points: 04's rule, kept in client.
const MaxKeyLength = client.MaxKeyLength

// MaxBodyBytes is the largest request body the server reads.
const MaxBodyBytes = 64 * 1024

// Options are what both routes work with.
type Options struct {
	Store     Store
	Remember  Remember
	Retention time.Duration
	Now       func() time.Time
	Tenant    string
}

// ProblemBody is an RFC 9457 problem, as text: its fields in the order harness/endpoint/contract.ts's
// problem() writes them, and "<" as it is, so a saved failure is the same bytes in both languages.
func ProblemBody(status int, title, detail string) string {
	var text strings.Builder
	encoder := json.NewEncoder(&text)
	encoder.SetEscapeHTML(false)
	_ = encoder.Encode(struct {
		Type   string `json:"type"`
		Title  string `json:"title"`
		Status int    `json:"status"`
		Detail string `json:"detail"`
	}{"about:blank", title, status, detail})
	return strings.TrimSuffix(text.String(), "\n")
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

// Problem answers an RFC 9457 problem, as application/problem+json.
func Problem(w http.ResponseWriter, status int, title, detail string) {
	write(w, status, ProblemBody(status, title, detail), false)
}

// Refuse answers the refusal by this name in rules.go as a problem, with a Link to the README section that
// explains it, and Retry-After on a 409.
func Refuse(w http.ResponseWriter, name string) {
	rule := Problems[name]
	w.Header().Set("Link", ReadmeLink(rule.Section))
	if rule.Status == http.StatusConflict {
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfterSeconds))
	}
	Problem(w, rule.Status, rule.Title, rule.Detail)
}

var clientPattern = regexp.MustCompile(ClientPattern)

// ClientOf is the caller, from Authorization: Bearer <client>; "" when it is missing or not in the client's
// syntax. Two header lines are read as HTTP joins them, with ", " between: no client.
func ClientOf(r *http.Request) string {
	parts := strings.Split(strings.Join(r.Header.Values(ClientHeader), ", "), " ")
	if len(parts) != 2 || parts[0] != ClientScheme || !clientPattern.MatchString(parts[1]) {
		return ""
	}
	return parts[1]
}

// HoldsNul says whether any text in the value, a field's name or a string, holds U+0000.
func HoldsNul(value any) bool {
	switch v := value.(type) {
	case string:
		return strings.ContainsRune(v, 0)
	case []any:
		for _, item := range v {
			if HoldsNul(item) {
				return true
			}
		}
	case map[string]any:
		for name, field := range v {
			if strings.ContainsRune(name, 0) || HoldsNul(field) {
				return true
			}
		}
	}
	return false
}

// ReadJSON decodes the body, or answers the 4xx and returns false: a wrong content type, too big, not UTF-8,
// not JSON, a number beyond a float64.
func ReadJSON(w http.ResponseWriter, r *http.Request) (any, bool) {
	kind, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if kind != "application/json" {
		Problem(w, http.StatusUnsupportedMediaType, "Unsupported Media Type", `send the body as application/json, not "`+kind+`"`)
		return nil, false
	}
	text, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		Problem(w, http.StatusRequestEntityTooLarge, "Content Too Large", "the body is over 65536 bytes")
		return nil, false
	}
	if !utf8.Valid(text) {
		Refuse(w, "not-utf-8")
		return nil, false
	}
	var body any
	if err := json.Unmarshal(text, &body); err != nil {
		Refuse(w, jsonRule(err))
		return nil, false
	}
	return body, true
}

// Fingerprint is the same for two bodies that say the same thing: map keys sorted, -0 as 0 (as in JavaScript).
func Fingerprint(body any) string {
	text, _ := json.Marshal(withoutNegativeZero(body))
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:])
}
