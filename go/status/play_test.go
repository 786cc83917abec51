package status

import (
	"fmt"
	"strings"
	"testing"

	"workbook/core"
)

// TestStatusSchedules plays every schedules/status file with the two given ways of applying changes, each
// held to its own column. Exercise 07's rules play the versioned column in go/exercises/07-close-and-reopen.
func TestStatusSchedules(t *testing.T) {
	for _, applier := range []struct {
		column string
		rules  Rules
	}{
		{AsItArrivesColumn, AsItArrives},
		{ReceiptsOnlyColumn, ReceiptsOnly},
	} {
		t.Run(applier.column, func(t *testing.T) { PlaySchedules(t, applier.column, applier.rules) })
	}
}

// TestAPanicIsTheSchedulesFailure: rules that panic stop their schedule at that delivery, told in the
// schedule's words, and the deliveries before it keep their answers; a stub's panic goes on as it was.
func TestAPanicIsTheSchedulesFailure(t *testing.T) {
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	s := all[0]
	panics := Rules{
		SetStatus:  func(*Store, Change) Answer { var none *Ticket; return Answer{Version: none.Version} },
		AddComment: ReceiptsOnly.AddComment,
	}
	problem := Judge(s, VersionedColumn, Play(s, panics))
	for _, words := range []string{fmt.Sprintf("Schedule %q", s.Name), "delivery 1 (", "your code panicked: runtime error"} {
		if !strings.Contains(problem, words) {
			t.Errorf("no %q in what the judge said of rules that panic:\n%s", words, problem)
		}
	}
	stub := Rules{SetStatus: func(*Store, Change) Answer { panic(core.Todo("SetStatus", "07-close-and-reopen/status.go")) }}
	defer func() {
		if _, still := recover().(core.NotWrittenYet); !still {
			t.Error("a stub's panic did not go on as a stub's: core.Written would not stop the test at it")
		}
	}()
	Play(s, stub)
}
