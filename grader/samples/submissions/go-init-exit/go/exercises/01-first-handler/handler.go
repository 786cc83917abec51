// Hostile: 01 solved (the Go solution, spliced in at the marker), and it ends the process in init().
package firsthandler

import "os"

// Ends the process before the observer plays anything.
func init() { os.Exit(3) }

// {{SOLUTION}}
