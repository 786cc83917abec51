// Hostile: 01 solved (the Go solution, spliced in at the marker), and it writes a line like the observer's in
// init().
package firsthandler

import (
	"os"
	"strings"
)

// Before the observer writes anything, a line that looks like one of its own: right answers and done.
func init() {
	channel := os.NewFile(3, "channel")
	channel.Write([]byte(strings.Repeat("0", 64) + ` {"done":true}` + "\n"))
}

// {{SOLUTION}}
