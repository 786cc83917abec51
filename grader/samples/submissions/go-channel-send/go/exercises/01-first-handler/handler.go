// Hostile: 01 solved (the Go solution, spliced in at the marker), and it sends its own sealed line with the
// observer's pen.
package firsthandler

import "workbook/channel"

// The observer's own pen: lines it writes are sealed with the run's key.
func init() { channel.Send(map[string]any{"done": true}) }

// {{SOLUTION}}
