package scheduler

import (
	"fmt"

	"workbook/database"
)

// LeftOpenMeans is what leaving a transaction open usually is, and what it does on a real server: the same
// words as harness/scheduler/left-open.ts.
const LeftOpenMeans = "That is usually a return before commit or rollback, or a catch that throws again before it rolls back. " +
	"On a real server the connection goes back to the pool idle in transaction, still holding what it read and " +
	"locked: the next delivery handed that connection runs inside the old transaction, and the others wait " +
	"for its locks."

// LeftOpen is the error RunWorkers returns when a worker's code returned, with an answer or an error, while
// its transaction was still open. Committed is what was committed once the run was over.
type LeftOpen struct {
	Worker    string
	Said      string // "B answers replayed #1", as the trace says it
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
