// Hostile: 01 solved (the Go solution, spliced in at the marker), and it makes a pointer to any memory
// through unsafe.
package firsthandler

import "unsafe"

// A pointer made from a number: any memory of the process, the key's too.
var anywhere = unsafe.Pointer(uintptr(0x1000))

// {{SOLUTION}}
