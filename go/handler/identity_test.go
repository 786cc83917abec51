package handler

import (
	"encoding/json"
	"math/rand"
	"testing"
	"testing/quick"
	"unicode"
)

// TestUnseenInASCII: unseen's answer for an ASCII character, made without the Unicode tables, is theirs.
func TestUnseenInASCII(t *testing.T) {
	for r := rune(0); r < 0x80; r++ {
		if got, want := unseen(r), unicode.In(r, unicode.Cc, unicode.Cf, unicode.Z); got != want {
			t.Errorf("unseen(%U) = %v, but the Unicode tables say %v", r, got, want)
		}
	}
}

// TestSaidIdentity: the same printed forms as harness/core/identity.test.ts, plain words kept for plain
// fields and every field quoted when one is not.
func TestSaidIdentity(t *testing.T) {
	tests := []struct {
		name                    string
		tenant, source, eventID string
		want                    string
	}{
		{"plain fields, joined with /", "acme", "helpdesk", "evt-42", `acme/helpdesk/evt-42`},
		{"other separators are plain", "a:b", "c|d", "e-f", `a:b/c|d/e-f`},
		{"a / inside a field: every field quoted", "a/b", "c", "evt-1", `"a/b"/"c"/"evt-1"`},
		{"the other side of that look-alike", "a", "b/c", "evt-1", `"a"/"b/c"/"evt-1"`},
		{"an empty field", "", "helpdesk", "evt-42", `""/"helpdesk"/"evt-42"`},
		{"a space", "acme corp", "helpdesk", "evt-42", `"acme corp"/"helpdesk"/"evt-42"`},
		{"a quote and a backslash", `a"b`, `c\d`, "e", `"a\"b"/"c\\d"/"e"`},
		{"a newline and a tab", "a\nb", "c\td", "e", `"a\nb"/"c\td"/"e"`},
		{"a character nobody can see", "acme\u200b", "helpdesk", "evt-42", `"acme\u200b"/"helpdesk"/"evt-42"`},
		{"a space that is not the plain one", "acme\u00a0corp", "x", "y", `"acme\u00a0corp"/"x"/"y"`},
		{"an invisible character beyond the first 65536", "\U000e0001", "x", "y", `"\udb40\udc01"/"x"/"y"`},
		{"letters beyond ASCII are plain", "zürich", "帮助", "évt-1", `zürich/帮助/évt-1`},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			event := Webhook{Tenant: test.tenant, Source: test.source, EventID: test.eventID}
			if got := SaidIdentity(event); got != test.want {
				t.Errorf("SaidIdentity(%q, %q, %q) = %s, want %s", test.tenant, test.source, test.eventID, got, test.want)
			}
		})
	}
}

// TestQuotedReadsBackAsJSON: a quoted field is a JSON string that reads back as the field.
func TestQuotedReadsBackAsJSON(t *testing.T) {
	property := func(field string) bool {
		var back string
		return json.Unmarshal([]byte(quoted(field)), &back) == nil && back == field
	}
	config := &quick.Config{MaxCount: 2000, Rand: rand.New(rand.NewSource(20260212))}
	if err := quick.Check(property, config); err != nil {
		t.Fatal(err)
	}
}

// TestNoTwoIdentitiesPrintAlike: two identities print alike exactly when they are the same event, for
// fields drawn from the characters that make joined identities collide.
func TestNoTwoIdentitiesPrintAlike(t *testing.T) {
	r := rand.New(rand.NewSource(20260212))
	alphabet := []string{"a", "b", "/", `"`, `\`, " ", "\n", "\u200b"}
	field := func() string {
		s := ""
		for range r.Intn(4) {
			s += alphabet[r.Intn(len(alphabet))]
		}
		return s
	}
	event := func() Webhook { return Webhook{Tenant: field(), Source: field(), EventID: field()} }
	for range 5000 {
		a, b := event(), event()
		if (SaidIdentity(a) == SaidIdentity(b)) != SameEvent(a, b) {
			t.Fatalf("%q and %q: printed %s and %s, but SameEvent = %v", a, b, SaidIdentity(a), SaidIdentity(b), SameEvent(a, b))
		}
	}
}
