package endpoint

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"workbook/schedules"
)

// What the server does before a route, in both languages (harness/endpoint/server.ts and header-guard.ts):
// a body over MaxBodyBytes is 413 before the route reads it, and a control character in a header line is
// refused as problem+json, where net/http (like Node's parser) would answer a bare 400 with no words.

// ReadmeLink is a refusal's Link to the README section that explains it, by a path from the root ("/exercises/…"):
// it resolves against any request's URL to the workbook's own path to that README, which ServeReadme serves.
func ReadmeLink(section string) string { return "</" + Readme + "#" + section + `>; rel="describedby"` }

// ServeReadme answers GET /<Readme> with that file under root (the workbook's folder), as server.ts does, and
// says whether it did: any other request is left to the caller.
func ServeReadme(w http.ResponseWriter, r *http.Request, root string) bool {
	if r.Method != http.MethodGet || r.URL.Path != "/"+Readme {
		return false
	}
	text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(Readme)))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return true
	}
	w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
	_, _ = w.Write(text)
	return true
}

// workbookFolder is the workbook's folder, where 06's README is: the one the schedules are in (schedules.Dir
// finds them from any package folder under go/, through go/testdata's link), "." when there is none.
func workbookFolder() string {
	dir, err := schedules.Dir()
	if err != nil {
		return "."
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Dir(dir)
}

// LimitBody answers 413 for a body over MaxBodyBytes before next sees the request, as server.ts does.
func LimitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		if err != nil || len(body) > MaxBodyBytes {
			Problem(w, http.StatusRequestEntityTooLarge, "Content Too Large", "the body is over 65536 bytes")
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// isControl is a byte HTTP forbids in a header line (RFC 9110, section 5.5): below a space but a tab, or DEL.
func isControl(b byte) bool { return (b < 0x20 && b != '\t') || b == 0x7f }

// ControlCharacterRule is the refusal for a request head (its bytes up to the blank line) with a control
// character in a header line, or "" when it has none: in Authorization, a malformed caller
// ("client-required", looked at first, as the route looks at the caller first); in Idempotency-Key, a key
// outside its syntax ("key-syntax"); in any other header, "header-control".
func ControlCharacterRule(head []byte) string {
	lines := strings.Split(string(head), "\r\n")
	found := map[string]bool{}
	for _, line := range lines[1:] {
		if strings.IndexFunc(line, func(c rune) bool { return c < 0x80 && isControl(byte(c)) }) < 0 {
			continue
		}
		name, _, _ := strings.Cut(line, ":")
		found[http.CanonicalHeaderKey(strings.TrimSpace(name))] = true
	}
	switch {
	case len(found) == 0:
		return ""
	case found[ClientHeader]:
		return "client-required"
	case found[KeyHeader]:
		return "key-syntax"
	}
	return "header-control"
}

// RefuseControlCharacters wraps a listener whose server keeps no connection alive (one request each): it reads
// each connection's request head, and for one with a control character in a header line it writes the
// refusal itself, tells refused (when not nil) the head, and closes the connection before net/http reads it.
func RefuseControlCharacters(l net.Listener, refused func(head []byte)) net.Listener {
	return guardedListener{l, refused}
}

type guardedListener struct {
	net.Listener
	refused func(head []byte)
}

func (l guardedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &guardedConn{Conn: c, reader: bufio.NewReaderSize(c, 1<<16), refused: l.refused}, nil
}

type guardedConn struct {
	net.Conn
	reader  *bufio.Reader
	refused func(head []byte)
	checked bool
}

// head is the request's bytes up to and with the blank line, read ahead without consuming them.
func (c *guardedConn) head() []byte {
	for {
		buffered, err := c.reader.Peek(c.reader.Buffered())
		if end := bytes.Index(buffered, []byte("\r\n\r\n")); end >= 0 {
			return buffered[:end]
		}
		if err != nil || c.reader.Buffered() == c.reader.Size() {
			return buffered
		}
		if _, err := c.reader.Peek(c.reader.Buffered() + 1); err != nil {
			return buffered
		}
	}
}

func (c *guardedConn) Read(p []byte) (int, error) {
	if !c.checked {
		c.checked = true
		head := c.head()
		if rule := ControlCharacterRule(head); rule != "" {
			if c.refused != nil {
				c.refused(head)
			}
			answer := httptest.NewRecorder()
			Refuse(answer, rule)
			response := answer.Result()
			response.Close, response.ContentLength = true, int64(answer.Body.Len())
			_ = response.Write(c.Conn)
			// The rest of the request is read and dropped before the close: a close with bytes unread sends a
			// reset, which can reach the client before it has read the answer.
			if tcp, ok := c.Conn.(*net.TCPConn); ok {
				_ = tcp.CloseWrite()
			}
			_ = c.Conn.SetReadDeadline(time.Now().Add(time.Second))
			_, _ = io.Copy(io.Discard, c.reader)
			return 0, io.EOF
		}
	}
	return c.reader.Read(p)
}
