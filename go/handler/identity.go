package handler

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// SaidIdentity prints an event's identity, as harness/core/identity.ts does: "acme/helpdesk/evt-42" when
// every field is plain (not empty, and no "/", quote, backslash, space, control or other invisible
// character), and otherwise every field quoted as JSON quotes it, with what can't be seen escaped:
// "a/b"/"c"/"evt-1". Two different identities never print alike.
func SaidIdentity(w Webhook) string {
	fields := []string{w.Tenant, w.Source, w.EventID}
	for _, field := range fields {
		if !plain(field) {
			for i, f := range fields {
				fields[i] = quoted(f)
			}
			break
		}
	}
	return strings.Join(fields, "/")
}

// unseen is a character a reader can't see, or can't tell apart: a control or format character (a
// zero-width space, a direction mark), or any kind of space or line separator. In ASCII those are the
// controls and the space, answered without the tables: every delivery's story says its identity, and
// 03's walks tell thousands.
func unseen(r rune) bool {
	if r < utf8.RuneSelf {
		return r <= ' ' || r == 0x7f
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Z)
}

func plain(field string) bool {
	return field != "" && !strings.ContainsFunc(field, func(r rune) bool {
		return r == '/' || r == '"' || r == '\\' || unseen(r)
	})
}

var shortEscapes = map[rune]string{'\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}

// quoted writes a field as a JSON string, every character that can't be seen escaped (the plain space
// stays), a character beyond the first 65536 as its two UTF-16 halves, as JSON writes it.
func quoted(field string) string {
	var said strings.Builder
	said.WriteByte('"')
	for i, r := range field {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(field[i:], "\uFFFD"):
			fmt.Fprintf(&said, `\x%02x`, field[i]) // a byte that is not UTF-8: JSON can't hold it either
		case r == '"' || r == '\\':
			said.WriteByte('\\')
			said.WriteRune(r)
		case shortEscapes[r] != "":
			said.WriteString(shortEscapes[r])
		case r != ' ' && unseen(r):
			if r > 0xFFFF {
				high, low := utf16.EncodeRune(r)
				fmt.Fprintf(&said, `\u%04x\u%04x`, high, low)
			} else {
				fmt.Fprintf(&said, `\u%04x`, r)
			}
		default:
			said.WriteRune(r)
		}
	}
	said.WriteByte('"')
	return said.String()
}

// Briefly names each of these events as briefly as tells them apart, as harness/core/words.ts's briefly
// does: by event id alone ("evt-42") when they all share one tenant and source, by their whole identity
// when not.
func Briefly(events []Webhook) func(Webhook) string {
	oneSender := true
	for _, e := range events {
		oneSender = oneSender && e.Tenant == events[0].Tenant && e.Source == events[0].Source
	}
	return func(e Webhook) string {
		if oneSender {
			return e.EventID
		}
		return SaidIdentity(e)
	}
}
