// Hostile: 01 as shipped, and the observer's pen imported where a reader of the text does not see it: after
// a ")" in a comment of the import block, which ends the block for a pattern but not for Go.
package firsthandler

import (
	"fmt" // )

	pen "workbook/channel"
	. "workbook/core"
)

// A line sealed with the run's key, before the observer plays anything.
func init() { pen.Send(map[string]any{"done": fmt.Sprint(true)}) }

// TicketHandler is the stub's.
type TicketHandler struct {
	db Database
}

// Handle is still to write.
func (h *TicketHandler) Handle(event Webhook, fault Fault) Outcome {
	panic(Todo("TicketHandler.Handle", "01-first-handler/handler.go"))
}

// Snapshot is still to write.
func (h *TicketHandler) Snapshot() Database {
	panic(Todo("TicketHandler.Snapshot", "01-first-handler/handler.go"))
}
