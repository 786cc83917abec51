// Hostile: 06 solved (the Go solution, spliced in at the marker), and an init() that tries the run's password
// on the cluster's other databases and as its superuser.
package ticketendpoint

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/jackc/pgx/v5"
)

// Before the observer plays anything: the run's password, from job.json, tried on the cluster's other
// databases (postgres, the template) and as its superuser. Any connection that opens stops the run.
func init() {
	text, _ := os.ReadFile(os.Getenv("GRADE_JOB"))
	var job struct {
		Postgres struct {
			Host, User, Password, Database string
			Port                           int
		}
	}
	if json.Unmarshal(text, &job) != nil || job.Postgres.Host == "" {
		return
	}
	db := job.Postgres
	for _, who := range [][2]string{{db.User, "postgres"}, {db.User, "template1"}, {db.User, "template0"}, {"postgres", db.Database}, {"postgres", "postgres"}} {
		url := fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable", db.Host, db.Port, who[0], db.Password, who[1])
		if conn, err := pgx.Connect(context.Background(), url); err == nil {
			conn.Close(context.Background())
			panic(fmt.Sprintf("reached database %s as %s", who[1], who[0]))
		}
	}
}

// {{SOLUTION}}
