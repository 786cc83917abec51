package schedules

import (
	"fmt"
	"strings"
	"unicode"
)

// UnseenLegend is the line under a table where two lines differ only in what a learner cannot see, as
// harness/core/report.ts's unseenLegend.
const UnseenLegend = "(· marks a space you would not see, ⟨U+…⟩ a character that prints as nothing or as a space)"

// unseen is a space of any kind, a control character (a tab) or one that prints as nothing (a zero-width
// space): a learner cannot tell two lines apart that differ only in them.
func unseen(r rune) bool { return unicode.In(r, unicode.Z, unicode.Cc, unicode.Cf) }

func withoutUnseen(line string) string {
	return strings.Map(func(r rune) rune {
		if unseen(r) {
			return -1
		}
		return r
	}, line)
}

// shown is the line with what it hides shown: a space at either end or beside another as ·, any other
// such character by its code point.
func shown(line string) string {
	runes := []rune(line)
	var out strings.Builder
	for at, r := range runes {
		switch {
		case !unseen(r):
			out.WriteRune(r)
		case r != ' ':
			fmt.Fprintf(&out, "⟨U+%04X⟩", r)
		case at > 0 && at < len(runes)-1 && runes[at-1] != ' ' && runes[at+1] != ' ':
			out.WriteRune(' ')
		default:
			out.WriteRune('·')
		}
	}
	return out.String()
}

// showUnseen shows each pair of lines that differ only in what a learner cannot see, so they can, and says
// whether it showed any.
func showUnseen(rows []Row) ([]Row, bool) {
	marked := false
	out := make([]Row, len(rows))
	for i, row := range rows {
		expected, actual := append([]string(nil), row.Expected...), append([]string(nil), row.Actual...)
		for j := range min(len(expected), len(actual)) {
			a, b := expected[j], actual[j]
			if a == b || withoutUnseen(a) != withoutUnseen(b) {
				continue
			}
			expected[j], actual[j], marked = shown(a), shown(b), true
		}
		out[i] = Row{Label: row.Label, Expected: expected, Actual: actual}
	}
	return out, marked
}
