// Hostile: 01 solved (the Go solution, spliced in at the marker, its Handle under another name), and a
// Handle that tries to read the reference's Go file from the grader's checkout before it answers.
package firsthandler

import "os"

// Handle tries to read the reference, keeps quiet when it cannot, and answers right.
func (h *TicketHandler) Handle(event Webhook, fault Fault) Outcome {
	_, _ = os.ReadFile("{{ROOT}}/go/solutions/01-first-handler/handler.go")
	return h.handleRight(event, fault)
}

// {{SOLUTION}}, its Handle named handleRight
