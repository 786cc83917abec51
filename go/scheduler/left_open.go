package scheduler

import (
	"errors"
	"fmt"

	"workbook/database"
)

// LeftOpenMeans is what leaving a transaction open usually is, and what it does on a real server: the same
// words as harness/scheduler/left-open.ts.
const LeftOpenMeans = "Usually a return or a throw before commit or rollback. On a real server the connection goes back idle in " +
	"transaction, and the next delivery on it waits or runs inside it."

// LeftOpen is the error RunWorkers returns when a worker's code returned, with an answer or an error, while
// its transaction was still open. Committed is what was committed once the run was over.
type LeftOpen struct {
	Worker    string
	Said      string // "B answers replayed #1"; "B stops with an error: unique violation"
	Answered  bool
	Committed database.Contents
}

// Error is the story: "Worker B: your handler answered with its transaction still open (B answers
// replayed #1)." and what it usually means.
func (e *LeftOpen) Error() string {
	how := "answered"
	if !e.Answered {
		how = "stopped with an error"
	}
	return fmt.Sprintf("Worker %s: your handler %s with its transaction still open (%s).\n%s", e.Worker, how, e.Said, LeftOpenMeans)
}

// shortError is an error as LeftOpen names it: a database error by its code, any other by its message.
func shortError(err error) string {
	var dbErr *database.Error
	if errors.As(err, &dbErr) {
		return humanCode(dbErr.Code)
	}
	return err.Error()
}
