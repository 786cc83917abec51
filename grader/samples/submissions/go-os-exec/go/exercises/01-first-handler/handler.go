// Hostile: 01 solved (the Go solution, spliced in at the marker, its Handle under another name), and a
// Handle that starts a program before it answers as the solution does.
package firsthandler

import "os/exec"

// Handle starts a program, ignores what came of it, and answers right.
func (h *TicketHandler) Handle(event Webhook, fault Fault) Outcome {
	_ = exec.Command("/usr/bin/true").Run()
	return h.handleRight(event, fault)
}

// {{SOLUTION}}, its Handle named handleRight
