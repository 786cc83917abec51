package endpoint

import (
	"encoding/json"
	"errors"
)

// What ReadJSON and Fingerprint need to read a body as JavaScript reads it (harness/endpoint/contract.ts).

// jsonRule is the refusal for a body json.Unmarshal would not take: "number-range" for valid JSON holding a
// number no float64 holds (1e400, which JavaScript reads as Infinity), "not-json" for anything else.
func jsonRule(err error) string {
	var outOfRange *json.UnmarshalTypeError
	if errors.As(err, &outOfRange) {
		return "number-range"
	}
	return "not-json"
}

// withoutNegativeZero is the value with every -0 made 0.
func withoutNegativeZero(value any) any {
	switch v := value.(type) {
	case float64:
		if v == 0 {
			return 0.0
		}
	case []any:
		copied := make([]any, len(v))
		for i, item := range v {
			copied[i] = withoutNegativeZero(item)
		}
		return copied
	case map[string]any:
		copied := make(map[string]any, len(v))
		for name, field := range v {
			copied[name] = withoutNegativeZero(field)
		}
		return copied
	}
	return value
}
