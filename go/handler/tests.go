package handler

import (
	"encoding/json"
	"testing"

	"workbook/schedules"
)

// PlaySchedules is exercises 01 and 02's test of a handler, as harness/handler/play.ts's
// playHandlerSchedules is TypeScript's: every schedules/handler file, the lesson's nine and then those
// beyond them, each a subtest held to the column's expectations.
//
//	func TestTheSchedules(t *testing.T) {
//		handler.PlaySchedules(t, handler.CreateEveryTime, func() handler.Handler { return &TicketHandler{} })
//	}
//
// The first schedule that goes another way tells its whole story; any later one says it fails in one
// line, so a red run fits on one screen.
func PlaySchedules(t *testing.T, column string, makeHandler func() Handler) {
	t.Helper()
	all, err := LoadSchedules()
	if err != nil {
		t.Fatal(err)
	}
	told := false
	for _, group := range []struct {
		name   string
		beyond bool
	}{{"the lesson's schedules", false}, {"beyond the lesson's nine", true}} {
		t.Run(group.name, func(t *testing.T) {
			for _, s := range all {
				if s.Beyond != group.beyond {
					continue
				}
				t.Run(s.Name, func(t *testing.T) {
					schedules.Playing(t, s, column)
					problem := Judge(s, column, Play(s, makeHandler()))
					switch {
					case problem == "":
					case told:
						t.Errorf("Schedule %q (%s) goes another way too: its story once the one above passes", s.Name, s.File)
					default:
						told = true
						t.Error(problem)
					}
				})
			}
		})
	}
}

// SnapshotIsACopy handles evt-42, scribbles on what Snapshot returned, and fails the test if that changed
// the handler's store, as harness/handler/play.ts's snapshotIsACopy does.
func SnapshotIsACopy(t *testing.T, h Handler) {
	t.Helper()
	if before, after, changed := ScribbleOnSnapshot(h); changed {
		t.Errorf("Changing what Snapshot() returned changed the handler's store.\nbefore: %s\nafter:  %s\n"+
			"Return a copy (CopyDatabase from workbook/core), not the live slices.", before, after)
	}
}

// ScribbleOnSnapshot handles evt-42, changes what Snapshot returned, and says whether the store changed.
// What the store held is written down as JSON before the scribbling, so a snapshot that shares its slices
// can't change "before" too.
func ScribbleOnSnapshot(h Handler) (before, after string, changed bool) {
	h.Handle(Webhook{Tenant: "acme", Source: "helpdesk", EventID: "evt-42", Subject: "Cannot sign in"}, NoFault)
	said := func(db Database) string {
		data, _ := json.Marshal(db)
		return string(data)
	}
	before = said(h.Snapshot())
	copied := h.Snapshot()
	if len(copied.Tickets) > 0 {
		copied.Tickets[0].Subject = "Changed through a snapshot"
	}
	copied.Tickets = append(copied.Tickets, Ticket{ID: 99, Tenant: "mallory", Subject: "Pushed into a snapshot"})
	if len(copied.Receipts) > 0 {
		copied.Receipts[0].TicketID = 99
	}
	after = said(h.Snapshot())
	return before, after, before != after
}
