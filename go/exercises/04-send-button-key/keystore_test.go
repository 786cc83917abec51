package sendbuttonkey

import (
	"testing"

	. "workbook/client"
	"workbook/core"
)

// code is the learner's key store, as the journeys take it.
var code = KeyStoreCode{New: New[Fields], AfterAnswer: AfterAnswer[Fields]}

// TestKeyStore is exercise 04's test, as exercises/04-send-button-key/submission.test.ts is TypeScript's:
// every schedules/client journey with your key store (and the given anti-pattern beside it), the lesson's
// contract case by case, then damaged entries and a storage that throws (go/client/contract.go).
func TestKeyStore(t *testing.T) {
	core.Written(t, func() {
		s := New[TicketBody](&MemoryStorage{}, "support", NumberedKeys())
		s.Begin(TicketBody{Subject: "Cannot sign in"})
		s.Pending()
		AfterAnswer(s, NoAnswer)
		s.Finish()
	})
	PlayJourneys(t, code)
	t.Run("the form locks its fields while unsure", func(t *testing.T) { FormLocksItsFieldsWhileUnsure(t, code) })
	TheLessonsContract(t, New[TicketBody], AfterAnswer[TicketBody])
	t.Run("beyond the lesson: damaged entries and a storage that throws (the README says why)", func(t *testing.T) {
		DamagedEntriesAndAThrowingStorage(t, New[TicketBody])
		t.Run("made-up tab lives over a storage that refuses at random: nothing thrown, a finished submission never back on its page", func(t *testing.T) {
			MadeUpTabLivesOverAFailingStorage(t, New[TicketBody])
		})
		t.Run("removeItem refused, Finish() twice, then a look: nothing finished comes back", func(t *testing.T) {
			TheIssuesLifeBreaksNothing(t, New[TicketBody])
		})
	})
}
