// Hostile: 02 solved (the Go solution, spliced in at the marker) but for SameEvent and Replay, which call the
// workbook's own: go/handler holds them, handed on to 03 and after.
package sameevent

import "workbook/handler"

// SameEvent is the harness's answer.
func SameEvent(a, b Webhook) bool { return handler.SameEvent(a, b) }

// Replay is the harness's answer.
func Replay(receipt Receipt, event Webhook) Outcome { return handler.Replay(receipt, event) }

// {{SOLUTION}}, its SameEvent named sameEventOwn, its Replay named replayOwn
