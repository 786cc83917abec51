package endpoint

import (
	"strings"
	"testing"
)

// TestToldOnce: a schedule that goes the same way under its second policy as under its first tells its story
// once; any other difference, or a first policy that passed, keeps the whole story.
func TestToldOnce(t *testing.T) {
	story := func(remember string) string {
		return `Schedule "x" (X), remember: "` + remember + `": …` + "\nrequest 2: expected status 422, got 201"
	}
	tests := []struct {
		name         string
		first, later string
		want         string
	}{
		{"the same story", story("everything"), story("successes"), `Schedule "x" goes the same way under remember: "successes" as under remember: "everything": its story is told there (everything/x)`},
		{"another story", story("everything"), story("successes") + "\nrequest 3: expected 201, got 500", story("successes") + "\nrequest 3: expected 201, got 500"},
		{"the first policy passed", "", story("successes"), story("successes")},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			if got := toldOnce("x", "everything", "successes", test.first, test.later); got != test.want {
				t.Errorf("toldOnce(%q, then %q) = %q, want %q", strings.SplitN(test.first, "\n", 2)[0], strings.SplitN(test.later, "\n", 2)[0], got, test.want)
			}
		})
	}
}
