package endpoint

// How much this process has moved, for the overlaps' hang rule (overlaps.go): the time its threads have run
// on a core, and the time they have waited for one, summed.
//
//	moved := processProgress()   // later: processProgress() - moved, what it did meanwhile
//
// A process that waits on nothing but itself (a channel, a lock no one will release) adds neither; a busy one
// adds its CPU time, and one kept from a core by a loaded machine adds the time it waited in the run queue.
// On Linux both come from each thread's /proc/self/task/*/schedstat; where that can't be read, the process's
// CPU time alone (getrusage), which a loaded machine can hold back.

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func processProgress() time.Duration {
	if moved, ok := scheduledTime(); ok {
		return moved
	}
	var usage syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &usage) != nil {
		return 0
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}

// scheduledTime sums each thread's time on a core and time waiting for one (the first two fields of its
// schedstat, in nanoseconds).
func scheduledTime() (time.Duration, bool) {
	threads, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 0, false
	}
	var total time.Duration
	for _, thread := range threads {
		text, err := os.ReadFile("/proc/self/task/" + thread.Name() + "/schedstat")
		if err != nil {
			continue // a thread that has just ended
		}
		fields := strings.Fields(string(text))
		if len(fields) < 2 {
			return 0, false
		}
		for _, field := range fields[:2] {
			ns, err := strconv.ParseInt(field, 10, 64)
			if err != nil {
				return 0, false
			}
			total += time.Duration(ns)
		}
	}
	return total, true
}
