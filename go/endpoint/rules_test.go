package endpoint

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRulesAreTheContracts holds Go's constants to harness/endpoint/rules.json, which TypeScript imports.
func TestRulesAreTheContracts(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "harness", "endpoint", "rules.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Client struct {
			Header, Scheme, Pattern string
		}
		Key struct {
			Header          string
			MaxLength       int
			Lowest, Highest int
			Excluded        string
		}
		MaxSubjectLength  int
		MaxBodyBytes      int
		RetryAfterSeconds int
		Readme            string
		Problems          map[string]Rule
	}
	if err := json.Unmarshal(text, &rules); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		go_, json any
	}{
		{"ClientHeader", ClientHeader, rules.Client.Header},
		{"ClientScheme", ClientScheme, rules.Client.Scheme},
		{"ClientPattern", ClientPattern, rules.Client.Pattern},
		{"KeyHeader", KeyHeader, rules.Key.Header},
		{"MaxKeyLength", MaxKeyLength, rules.Key.MaxLength},
		{"KeyLowest", KeyLowest, rules.Key.Lowest},
		{"KeyHighest", KeyHighest, rules.Key.Highest},
		{"KeyExcluded", KeyExcluded, rules.Key.Excluded},
		{"MaxSubjectLength", MaxSubjectLength, rules.MaxSubjectLength},
		{"MaxBodyBytes", MaxBodyBytes, rules.MaxBodyBytes},
		{"RetryAfterSeconds", RetryAfterSeconds, rules.RetryAfterSeconds},
		{"Readme", Readme, rules.Readme},
		{"Problems", Problems, rules.Problems},
	} {
		if !reflect.DeepEqual(c.go_, c.json) {
			t.Errorf("%s is %v in Go, but rules.json says %v", c.name, c.go_, c.json)
		}
	}
}
