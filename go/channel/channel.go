// Package channel is the Go observer's pen: the one way a Go run writes a line on the grader's channel that
// the grader will believe. It is grader/inside/seal.ts and main.ts's first lines, in Go.
//
//	channel.Send(map[string]any{"c": 0, "i": 2, "ok": true}) // "<hmac> {"c":0,"i":2,"ok":true}\n" on fd 3
//	job := channel.Job()         // job.json (GRADE_JOB), with the held-out inputs put back in their checks
//
// The grader hands a run its key on fd 4 and the held-out inputs on fd 5 (grader/channel/observations.ts).
// This package's init reads both and closes the descriptors, before any learner package's init runs: Go
// initialises packages in the order of their import paths, each once its imports are (the language spec,
// "Package initialization"), so every standard package comes first, then "workbook/channel", which imports
// only standard ones and sorts before every other package of the module ("workbook/client",
// "workbook/core", …, "workbook/exercises/…"). A learner's init() therefore finds fd 4 and fd 5 closed.
// The key then lives in an unexported variable: Go code reaches it only through memory past Go's types
// (unsafe, //go:linkname, cgo, and what hands out the same without importing unsafe: reflect's UnsafePointer
// and NewAt, syscall's raw calls, runtime/debug's heap dump), and the grader refuses a learner file that
// imports or uses any of them, as the toolchain reads its imports, before it builds (grader/sandbox/go-build.ts).
//
// Each line is the HMAC-SHA256, under the key, of the line's number, a newline and the JSON; a space; the JSON.
package channel

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"
)

// The descriptors, as grader/channel/observations.ts numbers them.
const (
	channelFd = 3
	keyFd     = 4
	heldOutFd = 5
)

var (
	key     []byte
	heldOut = map[string]json.RawMessage{}
	opened  bool
	mu      sync.Mutex
	number  int
	out     *os.File
)

// program is where the sandbox runs this program (grader/sandbox/attempts.ts, goProgram). Naming it is the
// first thing init does: the grader's tracer takes the calls before as the Go runtime's own start, unjudged.
const program = "/wb/observe"

func init() {
	syscall.Access(program, 1)
	keyFile := os.NewFile(keyFd, "key")
	heldOutFile := os.NewFile(heldOutFd, "held-out")
	if keyFile == nil || heldOutFile == nil {
		return
	}
	read, err := io.ReadAll(io.LimitReader(keyFile, 64))
	keyFile.Close()
	inputs, err2 := io.ReadAll(heldOutFile)
	heldOutFile.Close()
	if err != nil || err2 != nil || len(read) == 0 {
		return
	}
	if json.Unmarshal(inputs, &heldOut) != nil {
		heldOut = map[string]json.RawMessage{}
	}
	key, opened = read, true
	out = os.NewFile(channelFd, "channel")
}

// Opened says whether the key came in: a run started by the grader has one.
func Opened() bool { return opened }

// Send writes one sealed line. Lines are numbered in the order they are sent.
func Send(line any) {
	text, err := json.Marshal(line)
	if err != nil {
		text, _ = json.Marshal(map[string]any{"exited": 70, "while": "the observer could not write a line"})
	}
	mu.Lock()
	defer mu.Unlock()
	if !opened {
		return
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(strconv.Itoa(number) + "\n"))
	mac.Write(text)
	number++
	out.Write([]byte(hex.EncodeToString(mac.Sum(nil)) + " " + string(text) + "\n"))
}

// Check is one check of job.json: which observer, its inputs, whether it is held out.
type Check struct {
	Observer string            `json:"observer"`
	Cases    []json.RawMessage `json:"cases"`
	HeldOut  bool              `json:"heldOut"`
}

// RunJob is job.json as a Go run reads it (grader/channel/job.ts).
type RunJob struct {
	Folder   string          `json:"folder"`
	Checks   []Check         `json:"checks"`
	Postgres json.RawMessage `json:"postgres"`
}

// Job reads job.json and puts each held-out check's inputs, which came on fd 5, back in it.
func Job() (RunJob, error) {
	var job RunJob
	path := os.Getenv("GRADE_JOB")
	if path == "" {
		path = "/job.json"
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return job, err
	}
	if err := json.Unmarshal(text, &job); err != nil {
		return job, err
	}
	for c, cases := range heldOut {
		n, err := strconv.Atoi(c)
		if err != nil || n < 0 || n >= len(job.Checks) {
			continue
		}
		var inputs []json.RawMessage
		if json.Unmarshal(cases, &inputs) == nil {
			job.Checks[n].Cases = inputs
		}
	}
	return job, nil
}
