// Hostile: 01 solved (the Go solution, spliced in at the marker), and a pointer to any address made without
// importing unsafe: reflect's Value.UnsafePointer hands one out, and NewAt reads a pointer's own bytes as a
// number that can be set.
package firsthandler

import "reflect"

// Where its pointer points: set to its own variable's address here, the key's as easily.
var mark = 42

func init() {
	at := reflect.ValueOf(new(int)).UnsafePointer()
	word := reflect.NewAt(reflect.TypeOf(uintptr(0)), reflect.ValueOf(&at).UnsafePointer()).Elem()
	word.SetUint(uint64(reflect.ValueOf(&mark).Pointer()))
	if reflect.NewAt(reflect.TypeOf(0), at).Elem().Int() != 42 {
		panic("no pointer")
	}
}

// {{SOLUTION}}
