package schedules

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// The Go loader holds every schedule to the very JSON Schema files the TypeScript loader uses
// (schedules/schema/<kind>.schema.json), so a schedule one language accepts the other accepts too:
// minimum, length, pattern and array sizes included, not only the shapes Go's types can say. It knows the
// keywords those files use, and refuses a schema with any other, so a new keyword can't be ignored in
// silence. Its messages read like the TypeScript loader's: "deliveries[1].fault: must be one of …".

// keywords are the JSON Schema keywords this validator understands.
var keywords = map[string]bool{
	"$schema": true, "$id": true, "title": true, "description": true, "definitions": true, "$ref": true,
	"type": true, "enum": true, "const": true, "required": true, "properties": true,
	"additionalProperties": true, "items": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"minLength": true, "maxLength": true, "pattern": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true,
	"oneOf": true, "discriminator": true,
}

type jsonSchema struct {
	root     map[string]any
	patterns map[string]*regexp.Regexp
}

var (
	schemasMu sync.Mutex
	schemas   = map[string]*jsonSchema{}
)

// schemaFor reads schedules/schema/<kind>.schema.json once.
func schemaFor(kind string) (*jsonSchema, error) {
	schemasMu.Lock()
	defer schemasMu.Unlock()
	if s, ok := schemas[kind]; ok {
		return s, nil
	}
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "schema", kind+".schema.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the schema of %q schedules: %w", kind, err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("schedules/schema/%s.schema.json: not valid JSON (%v)", kind, err)
	}
	s := &jsonSchema{root: root, patterns: map[string]*regexp.Regexp{}}
	if err := s.known(root, ""); err != nil {
		return nil, fmt.Errorf("schedules/schema/%s.schema.json: %w", kind, err)
	}
	schemas[kind] = s
	return s, nil
}

// known walks a schema and refuses keywords the validator does not understand; it compiles the patterns.
func (s *jsonSchema) known(node map[string]any, at string) error {
	for name, value := range node {
		if !keywords[name] {
			return fmt.Errorf("%s: the Go loader does not understand the keyword %q", where(at), name)
		}
		switch name {
		case "properties", "definitions":
			for key, inner := range value.(map[string]any) {
				if err := s.known(inner.(map[string]any), at+"/"+name+"/"+key); err != nil {
					return err
				}
			}
		case "items":
			if err := s.known(value.(map[string]any), at+"/items"); err != nil {
				return err
			}
		case "additionalProperties":
			if inner, ok := value.(map[string]any); ok {
				if err := s.known(inner, at+"/additionalProperties"); err != nil {
					return err
				}
			}
		case "oneOf":
			for i, inner := range value.([]any) {
				if err := s.known(inner.(map[string]any), fmt.Sprintf("%s/oneOf/%d", at, i)); err != nil {
					return err
				}
			}
		case "pattern":
			compiled, err := regexp.Compile(value.(string))
			if err != nil {
				return fmt.Errorf("%s: pattern %q: %v", where(at), value, err)
			}
			s.patterns[value.(string)] = compiled
		}
	}
	return nil
}

// validate adds one line per problem of value against node, named by path.
func (s *jsonSchema) validate(node map[string]any, value any, path string, problems *[]string) {
	fail := func(format string, args ...any) {
		*problems = append(*problems, where(path)+": "+fmt.Sprintf(format, args...))
	}
	if _, ok := node["$ref"].(string); ok {
		s.validate(s.deref(node), value, path, problems)
		return
	}
	if types, ok := node["type"]; ok && !hasType(types, value) {
		fail("must be %s", joinTypes(types))
		return
	}
	if allowed, ok := node["enum"].([]any); ok && !slices.ContainsFunc(allowed, func(v any) bool { return reflect.DeepEqual(v, value) }) {
		quoted := make([]string, len(allowed))
		for i, v := range allowed {
			data, _ := json.Marshal(v)
			quoted[i] = string(data)
		}
		fail("must be one of %s", strings.Join(quoted, ", "))
	}
	if constant, ok := node["const"]; ok && !reflect.DeepEqual(constant, value) {
		fail("must be equal to constant")
	}
	switch v := value.(type) {
	case map[string]any:
		s.object(node, v, path, problems)
	case []any:
		s.array(node, v, path, problems)
	case string:
		length := utf8.RuneCountInString(v) // JSON Schema counts characters (code points), as ajv does
		if least, ok := node["minLength"].(float64); ok && float64(length) < least {
			fail("must NOT have fewer than %v characters", least)
		}
		if most, ok := node["maxLength"].(float64); ok && float64(length) > most {
			fail("must NOT have more than %v characters", most)
		}
		if pattern, ok := node["pattern"].(string); ok && !s.patterns[pattern].MatchString(v) {
			fail("must match pattern %q", pattern)
		}
	case float64:
		if least, ok := node["minimum"].(float64); ok && v < least {
			fail("must be >= %v", least)
		}
		if most, ok := node["maximum"].(float64); ok && v > most {
			fail("must be <= %v", most)
		}
		if above, ok := node["exclusiveMinimum"].(float64); ok && v <= above {
			fail("must be > %v", above)
		}
		if below, ok := node["exclusiveMaximum"].(float64); ok && v >= below {
			fail("must be < %v", below)
		}
	}
}

// deref follows a "$ref" to its definition (as often as it takes); a node without one is itself.
func (s *jsonSchema) deref(node map[string]any) map[string]any {
	for {
		ref, ok := node["$ref"].(string)
		if !ok {
			return node
		}
		node = s.root["definitions"].(map[string]any)[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any)
	}
}

func (s *jsonSchema) object(node map[string]any, object map[string]any, path string, problems *[]string) {
	properties, _ := node["properties"].(map[string]any)
	required, _ := node["required"].([]any)
	for _, name := range required {
		if _, ok := object[name.(string)]; !ok {
			*problems = append(*problems, at(path, name.(string))+": missing")
		}
	}
	names := make([]string, 0, len(object))
	for name := range object {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		inner, known := properties[name].(map[string]any)
		if !known {
			switch extra := node["additionalProperties"].(type) {
			case bool:
				if !extra {
					*problems = append(*problems, at(path, name)+": not a field here (misspelled?)")
				}
			case map[string]any: // every other field is held to this schema
				s.validate(extra, object[name], at(path, name), problems)
			}
			continue
		}
		s.validate(inner, object[name], at(path, name), problems)
	}
	// A discriminated oneOf: the tag picks the one shape the object is held to.
	if choices, ok := node["oneOf"].([]any); ok {
		tag := node["discriminator"].(map[string]any)["propertyName"].(string)
		for _, choice := range choices {
			shape := s.deref(choice.(map[string]any))
			properties, _ := shape["properties"].(map[string]any)
			tagged, _ := properties[tag].(map[string]any)
			if tagged != nil && reflect.DeepEqual(tagged["const"], object[tag]) {
				s.validate(shape, object, path, problems)
				return
			}
		}
		// No shape has this tag: the enum or required check above already said so.
	}
}

func (s *jsonSchema) array(node map[string]any, items []any, path string, problems *[]string) {
	fail := func(format string, args ...any) {
		*problems = append(*problems, where(path)+": "+fmt.Sprintf(format, args...))
	}
	if least, ok := node["minItems"].(float64); ok && float64(len(items)) < least {
		fail("must NOT have fewer than %v items", least)
	}
	if most, ok := node["maxItems"].(float64); ok && float64(len(items)) > most {
		fail("must NOT have more than %v items", most)
	}
	if unique, ok := node["uniqueItems"].(bool); ok && unique {
	duplicates:
		for j := len(items) - 1; j > 0; j-- {
			for i := j - 1; i >= 0; i-- {
				if reflect.DeepEqual(items[i], items[j]) {
					fail("must NOT have duplicate items (items ## %d and %d are identical)", i, j)
					break duplicates
				}
			}
		}
	}
	if inner, ok := node["items"].(map[string]any); ok {
		for i, item := range items {
			s.validate(inner, item, fmt.Sprintf("%s[%d]", path, i), problems)
		}
	}
}

// hasType says whether a decoded JSON value is of one of the schema's types.
func hasType(types any, value any) bool {
	list, ok := types.([]any)
	if !ok {
		list = []any{types}
	}
	for _, t := range list {
		switch v := value.(type) {
		case map[string]any:
			ok = t == "object"
		case []any:
			ok = t == "array"
		case string:
			ok = t == "string"
		case bool:
			ok = t == "boolean"
		case nil:
			ok = t == "null"
		case float64:
			ok = t == "number" || (t == "integer" && v == math.Trunc(v))
		}
		if ok {
			return true
		}
	}
	return false
}

func joinTypes(types any) string {
	list, ok := types.([]any)
	if !ok {
		return fmt.Sprint(types)
	}
	names := make([]string, len(list))
	for i, t := range list {
		names[i] = fmt.Sprint(t)
	}
	return strings.Join(names, ",")
}

// againstSchema holds decoded JSON to its kind's schema file, and lists the problems.
func againstSchema(kind string, raw any) ([]string, error) {
	s, err := schemaFor(kind)
	if err != nil {
		return nil, err
	}
	var problems []string
	s.validate(s.root, raw, "", &problems)
	return problems, nil
}
