package core

import "testing"

func TestCaseStory(t *testing.T) {
	tests := []struct {
		name, call, want, got, means string
		story                        string
	}{
		{
			`tenant "a:b" is not tenant "a"`, "SameEvent(a:b/c/evt-1, a/b:c/evt-1)", "false (two events)", "true (the same event)", "",
			"Case \"tenant \"a:b\" is not tenant \"a\"\":\nSameEvent(a:b/c/evt-1, a/b:c/evt-1): expected false (two events), your code returned true (the same event).",
		},
		{
			"a retry", "Begin(edited)", `key-1 "x"`, `key-2 "x"`, "a retry, not a new request",
			"Case \"a retry\":\nBegin(edited): expected key-1 \"x\", your code returned key-2 \"x\".\nWhat this usually means: a retry, not a new request.",
		},
	}
	for _, test := range tests {
		if story := CaseStory(test.name, test.call, test.want, test.got, test.means); story != test.story {
			t.Errorf("CaseStory(%q, …) = %q, want %q", test.name, story, test.story)
		}
	}
}
