// Hostile: 01 solved (the Go solution, spliced in at the marker), and it calls a C function through cgo.
package firsthandler

// int twice(int n) { return 2 * n; }
import "C"

var _ = C.twice(1)

// {{SOLUTION}}
