package endpoint

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestControlCharacterRule names the refusal for each head, as header-guard.ts does in TypeScript.
func TestControlCharacterRule(t *testing.T) {
	for _, c := range []struct{ head, want string }{
		{"POST / HTTP/1.1\r\nIdempotency-Key: k-1\r\nAuthorization: Bearer form", ""},
		{"POST / HTTP/1.1\r\nIdempotency-Key: k\t1", ""},
		{"POST / HTTP/1.1\r\nidempotency-key: k\x7f1", "key-syntax"},
		{"POST / HTTP/1.1\r\nIdempotency-Key: k\x011\r\nAuthorization: Bearer form\x7f", "client-required"},
		{"POST / HTTP/1.1\r\nContent-Type: application/json\x00", "header-control"},
		{"POST / HTTP/1.1\r\nX: \x7f\r\nIdempotency-Key: k\x7f", "key-syntax"},
	} {
		if got := ControlCharacterRule([]byte(c.head)); got != c.want {
			t.Errorf("ControlCharacterRule(%q) = %q, want %q", c.head, got, c.want)
		}
	}
}

// anchors are the README's headings as GitHub makes their anchors: lower case, punctuation dropped, spaces
// to hyphens.
func anchors(readme string) []string {
	dropped := regexp.MustCompile(`[^\p{L}\p{N} -]`)
	var list []string
	for _, line := range strings.Split(readme, "\n") {
		if heading, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") {
			list = append(list, strings.ReplaceAll(dropped.ReplaceAllString(strings.ToLower(heading), ""), " ", "-"))
		}
	}
	return list
}

// TestReadmeLinkIsFollowed resolves each refusal's Link against the request's URL, as a client does, and
// finds 06's README served there, with a heading for the section.
func TestReadmeLinkIsFollowed(t *testing.T) {
	for name := range Problems {
		t.Run(name, func(t *testing.T) {
			server := serve(map[string]http.Handler{"/api/tickets": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { Refuse(w, name) })})
			defer server.Close()
			requested, _ := url.Parse(server.URL + "/api/tickets")
			answer, err := http.Post(requested.String(), "application/json", strings.NewReader("{}"))
			if err != nil {
				t.Fatal(err)
			}
			answer.Body.Close()
			link := regexp.MustCompile(`^<([^>]*)>; rel="describedby"$`).FindStringSubmatch(answer.Header.Get("Link"))
			if link == nil {
				t.Fatalf("Link: %q", answer.Header.Get("Link"))
			}
			reference, _ := url.Parse(link[1])
			target := requested.ResolveReference(reference)
			if target.Path != "/"+Readme {
				t.Fatalf("the Link resolves to %s, not to the README at /%s", target.Path, Readme)
			}
			followed, err := http.Get(target.String())
			if err != nil {
				t.Fatal(err)
			}
			defer followed.Body.Close()
			text, _ := io.ReadAll(followed.Body)
			if followed.StatusCode != http.StatusOK || followed.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
				t.Fatalf("GET %s: %d %s", target.Path, followed.StatusCode, followed.Header.Get("Content-Type"))
			}
			found := false
			for _, a := range anchors(string(text)) {
				found = found || a == target.Fragment
			}
			if !found {
				t.Errorf("no heading of %s makes the anchor #%s", Readme, target.Fragment)
			}
		})
	}
}
