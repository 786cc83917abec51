package core

import "fmt"

// CaseStory is a focused test's failure told as the schedules tell theirs, in the words of
// harness/core/cases.ts: the case, the call, what was expected against what the code returned, and what
// that usually means ("" for nothing to add). A learner's first failure is then the lesson's story in
// either language, never a bare "= …, want …".
func CaseStory(name, call, want, got, means string) string {
	story := fmt.Sprintf("Case \"%s\":\n%s: expected %s, your code returned %s.", name, call, want, got)
	if means != "" {
		story += "\nWhat this usually means: " + means + "."
	}
	return story
}
