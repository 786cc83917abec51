package outbox

import "testing"

func TestEmailKey(t *testing.T) {
	tests := []struct {
		name    string
		a, b    [2]any // tenant, ticket id
		sameKey bool
	}{
		{"the same ticket asked twice: the same key", [2]any{"acme", 7}, [2]any{"acme", 7}, true},
		{"the same number at two tenants: two keys", [2]any{"acme", 1}, [2]any{"globex", 1}, false},
		{"two tickets of one tenant: two keys", [2]any{"acme", 1}, [2]any{"acme", 2}, false},
		{"a tenant with a slash: a/1 #2 is not a #12", [2]any{"a/1", 2}, [2]any{"a", 12}, false},
		{"a tenant with a slash: a/12 #3 is not a/1/2 #3", [2]any{"a/12", 3}, [2]any{"a/1/2", 3}, false},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			a := EmailKey(test.a[0].(string), test.a[1].(int), "ticket-confirmation")
			b := EmailKey(test.b[0].(string), test.b[1].(int), "ticket-confirmation")
			if (a == b) != test.sameKey {
				t.Errorf("%q and %q: same = %v, want %v", a, b, a == b, test.sameKey)
			}
		})
	}
	if got := EmailKey("acme", 1, "ticket-confirmation"); got != "ticket-confirmation/acme/1" {
		t.Errorf("EmailKey(acme, 1) = %q", got)
	}
}
