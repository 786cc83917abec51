package race

import (
	"testing"

	"workbook/handler"
	"workbook/schedules"
)

// implementations are the two columns of a race schedule, and the code held to each.
var implementations = []implementation{{SeparateColumn, Separate}, {AtomicColumn, Atomic}}

// TestRaceSchedules plays every schedules/race file against Separate and Atomic, each held to its column.
func TestRaceSchedules(t *testing.T) {
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	for _, impl := range implementations {
		t.Run(impl.column, func(t *testing.T) {
			for _, s := range all {
				t.Run(s.Name, func(t *testing.T) {
					schedules.Playing(t, s, impl.column)
					if problem := judge(s, impl.column, play(s, impl)); problem != "" {
						t.Error(problem)
					}
				})
			}
		})
	}
}

// TestHandlerSchedulesOneAtATime: one delivery at a time, Separate and Atomic both do everything
// exercise 02's receipt handler does. The race needs two at once.
func TestHandlerSchedulesOneAtATime(t *testing.T) {
	all, err := handler.LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	for _, impl := range implementations {
		t.Run(impl.column, func(t *testing.T) {
			for _, s := range all {
				t.Run(s.Name, func(t *testing.T) {
					schedules.Playing(t, s, handler.ReceiptInCommit)
					got, trace, err := playDeliveries(s, impl.handle)
					if err != nil {
						t.Fatalf("%v\n\nWhat happened:\n%s", err, trace)
					}
					if problem := handler.Judge(s, handler.ReceiptInCommit, got); problem != "" {
						t.Errorf("%s\n\nWhat happened:\n%s", problem, trace)
					}
				})
			}
		})
	}
}
