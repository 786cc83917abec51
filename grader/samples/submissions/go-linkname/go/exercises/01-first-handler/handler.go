// Hostile: 01 solved (the Go solution, spliced in at the marker), and it names the observer's key through
// //go:linkname.
package firsthandler

import _ "unsafe"

// The observer's key, reached past Go's types.
//
//go:linkname key workbook/channel.key
var key []byte

// {{SOLUTION}}
