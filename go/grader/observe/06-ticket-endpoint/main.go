// Command 06-ticket-endpoint observes a Go learner's exercise 06 for the grader, in the shapes
// grader/inside/06-ticket-endpoint.observe.ts writes: the endpoint schedules and the handler schedules played
// over HTTP on the run's own PostgreSQL database (job.json's postgres: its socket folder, port, role,
// password and database), and, in memory, the sequences against the reference, every crash point and its
// retry, and every overlap of two requests. The judges (grader/checks/06-ticket-endpoint.held.ts) read them.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"workbook/channel"
	"workbook/endpoint"
	ticketendpoint "workbook/exercises/06-ticket-endpoint"
	"workbook/grader/observe"
	"workbook/handler"
)

var code = endpoint.ForGrader(endpoint.Code{Tickets: ticketendpoint.Tickets, Webhooks: ticketendpoint.Webhooks})

// database is the run's PostgreSQL as job.json names it (grader/channel/job.ts's RunPostgres).
type database struct {
	Host     string `json:"host"`
	Port     int    `json:"port"`
	User     string `json:"user"`
	Password string `json:"password"`
	Database string `json:"database"`
}

// quoted is a value of a connection string: in single quotes, a quote or a backslash escaped.
func quoted(value string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(value) + "'"
}

// url is the run's database as pgx reads it; an error when the run was given none.
func url() (string, error) {
	job, err := channel.Job()
	if err != nil {
		return "", err
	}
	var db database
	if len(job.Postgres) == 0 || string(job.Postgres) == "null" || json.Unmarshal(job.Postgres, &db) != nil {
		return "", fmt.Errorf("this run was given no PostgreSQL database")
	}
	return fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable",
		quoted(db.Host), db.Port, quoted(db.User), quoted(db.Password), quoted(db.Database)), nil
}

func read[T any](input json.RawMessage) (T, *observe.Thrown) {
	var value T
	if err := json.Unmarshal(input, &value); err != nil {
		return value, &observe.Thrown{Name: "Error", Message: "the input could not be read: " + err.Error()}
	}
	return value, nil
}

// failed is what stopped a play, in a line a report can show whole: the server's own words when PostgreSQL
// refused it ("sorry, too many clients already"), or why its socket could not be reached (a backlog full of
// connections of the run's own), as a run that exhausts its own cluster reads in its report.
func failed(err error) observe.Thrown {
	var refused *pgconn.PgError
	var unreached *net.OpError
	switch {
	case errors.As(err, &refused):
		return observe.Thrown{Name: "Error", Message: fmt.Sprintf("the run's PostgreSQL said: %s (SQLSTATE %s)", refused.Message, refused.Code)}
	case errors.As(err, &unreached):
		return observe.Thrown{Name: "Error", Message: fmt.Sprintf("the run's PostgreSQL could not be reached: %v", unreached.Err)}
	}
	return observe.Thrown{Name: "Error", Message: err.Error()}
}

func main() {
	postgres, noDatabase := url()
	// One store at a time, lent to each play and emptied after it: the plays run one after another.
	stores := endpoint.NewStores(postgres)
	observe.Run(observe.Observers{
		"endpoint": func(input json.RawMessage) any {
			given, bad := read[struct {
				Schedule endpoint.Schedule `json:"schedule"`
				Remember endpoint.Remember `json:"remember"`
			}](input)
			if bad != nil {
				return *bad
			}
			if noDatabase != nil {
				return failed(noDatabase)
			}
			played, err := endpoint.PlayForGrader(code, given.Schedule, given.Remember, stores)
			if err != nil {
				return failed(err)
			}
			return played
		},
		// A handler schedule's deliveries sent to POST /webhooks, answers read in the handler schedules' words.
		"webhooks": func(input json.RawMessage) any {
			schedule, bad := read[handler.Schedule](input)
			if bad != nil {
				return *bad
			}
			if noDatabase != nil {
				return failed(noDatabase)
			}
			played, err := endpoint.WebhooksForGrader(code, schedule, stores)
			if err != nil {
				return failed(err)
			}
			return played
		},
		"sequence": func(input json.RawMessage) any {
			sequence, err := endpoint.ReadSequence(input)
			if err != nil {
				return failed(err)
			}
			return endpoint.SequenceForGrader(code, sequence)
		},
		"overlap": func(input json.RawMessage) any {
			index, bad := read[int](input)
			if bad != nil {
				return *bad
			}
			problem, err := endpoint.OverlapForGrader(code, index)
			if err != nil {
				return map[string]any{"problem": err.Error()}
			}
			return map[string]any{"problem": problem}
		},
		"crashes": func(input json.RawMessage) any {
			sequence, err := endpoint.ReadSequence(input)
			if err != nil {
				return failed(err)
			}
			crashes, err := endpoint.CrashesForGrader(code, sequence)
			if err != nil {
				return map[string]any{"crashes": crashes, "thrown": endpoint.SaidError{Name: "Error", Message: err.Error()}}
			}
			return map[string]any{"crashes": crashes}
		},
	})
}
