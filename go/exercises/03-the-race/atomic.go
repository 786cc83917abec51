// Package therace is exercise 03 in Go: the race between two workers that get the same event at once.
// Read exercises/03-the-race/README.md, write your prediction in prediction.go and the fix below, and run
// go test ./exercises/03-the-race from go/.
package therace

import (
	. "workbook/core"
	"workbook/database"
	_ "workbook/handler" // handler.Replay(receipt, event): the receipt's ticket, or a conflict when the subject differs
)

// HandleAtomically is the fix: the receipt check, the ticket and the receipt in one transaction. When the
// receipt's insert hits the unique key, another worker got there first: roll back, read its receipt, and
// answer with it. SaveReceipt fails with a *database.Error whose Code is database.UniqueViolation when
// another worker committed the same key (after waiting, if its transaction was still open).
func HandleAtomically(db database.Connection, event Webhook) (Outcome, error) {
	panic(Todo("HandleAtomically", "03-the-race/atomic.go"))
}
