package endpoint

// The rules of POST /api/tickets, Go's copy of harness/endpoint/rules.json, the one home both languages read:
// rules_test.go fails when a value here is not the one there.

// ClientHeader, ClientScheme and ClientPattern say who is calling: Authorization: Bearer <client>.
const (
	ClientHeader  = "Authorization"
	ClientScheme  = "Bearer"
	ClientPattern = `^[a-z0-9][a-z0-9-]{0,62}$`
)

// KeyHeader is the header a key comes in; a key is the characters from KeyLowest to KeyHighest, without
// KeyExcluded, at most MaxKeyLength of them.
const (
	KeyHeader   = "Idempotency-Key"
	KeyLowest   = 33
	KeyHighest  = 126
	KeyExcluded = "\"\\,"
)

// MaxSubjectLength is the longest subject the tickets table holds, in code points.
const MaxSubjectLength = 200

// RetryAfterSeconds is the Retry-After of a 409: when trying the same key again makes sense.
const RetryAfterSeconds = 1

// Readme is where each refusal's Link points, at its Section.
const Readme = "exercises/06-ticket-endpoint/README.md"

// Rule is one refusal: its status, its words, and the README section that explains it.
type Rule struct {
	Status  int    `json:"status"`
	Title   string `json:"title"`
	Detail  string `json:"detail"`
	Section string `json:"section"`
}

// Problems are the refusals by name, as rules.json lists them.
var Problems = map[string]Rule{
	"client-required":  {Status: 401, Title: "Unauthorized", Detail: "send Authorization: Bearer <client>: keys belong to the client that sent them", Section: "keys-belong-to-a-client"},
	"query-refused":    {Status: 400, Title: "Bad Request", Detail: "this route takes no query string: its answer would not be part of the key's fingerprint", Section: "the-query-string"},
	"key-required":     {Status: 400, Title: "Bad Request", Detail: "the Idempotency-Key header is required", Section: "the-keys-syntax"},
	"key-once":         {Status: 400, Title: "Bad Request", Detail: "send one Idempotency-Key header line, holding one key (a comma separates two)", Section: "the-keys-syntax"},
	"key-syntax":       {Status: 400, Title: "Bad Request", Detail: "the Idempotency-Key holds a character outside printable ASCII (! to ~, without \" \\ or a comma)", Section: "the-keys-syntax"},
	"header-control":   {Status: 400, Title: "Bad Request", Detail: "a header line holds a control character (below a space, other than a tab, or DEL), which HTTP does not allow", Section: "the-keys-syntax"},
	"key-length":       {Status: 400, Title: "Bad Request", Detail: "the Idempotency-Key is longer than 255 characters", Section: "the-keys-syntax"},
	"not-utf-8":        {Status: 400, Title: "Bad Request", Detail: "the body is not valid UTF-8", Section: "refused-before-the-store"},
	"not-json":         {Status: 400, Title: "Bad Request", Detail: "the body is not valid JSON", Section: "refused-before-the-store"},
	"number-range":     {Status: 400, Title: "Bad Request", Detail: "a number in the body is beyond what a double (IEEE 754) holds, so it would not read back as sent", Section: "refused-before-the-store"},
	"nul":              {Status: 400, Title: "Bad Request", Detail: "a text in the body holds U+0000, which PostgreSQL cannot store", Section: "refused-before-the-store"},
	"subject-required": {Status: 400, Title: "Bad Request", Detail: "the ticket needs a subject", Section: "refused-before-the-store"},
	"subject-length":   {Status: 400, Title: "Bad Request", Detail: "the subject is longer than 200 characters", Section: "refused-before-the-store"},
	"in-flight":        {Status: 409, Title: "Conflict", Detail: "a request with this Idempotency-Key is still in progress", Section: "in-flight-409"},
	"other-body":       {Status: 422, Title: "Unprocessable Content", Detail: "this Idempotency-Key was used with another body", Section: "another-body-422"},
}
