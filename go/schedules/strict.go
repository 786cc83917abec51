package schedules

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// OneOf is a string type that allows only a fixed set of values, such as a fault or an outcome kind.
// The strict check refuses any other value and lists the allowed ones.
type OneOf interface {
	Values() []string
}

var oneOfType = reflect.TypeFor[OneOf]()

// Union is a struct type that stands for one of several shapes, picked by one field, its tag: the
// outbox steps are picked by "do". Shapes maps each value of the tag to a zero value of a struct whose
// fields are the ones allowed with it, the tag included. The strict check holds an object to its shape.
type Union interface {
	UnionTag() string
	Shapes() map[string]any
}

var unionType = reflect.TypeFor[Union]()

// field is one JSON field of a struct, as the strict check sees it.
type field struct {
	name     string
	typ      reflect.Type
	optional bool // omitempty or omitzero: the file may leave it out
	nullable bool // `schedule:"nullable"`: the file may say null
}

// fieldsOf lists a struct's JSON fields in order, lifting the fields of embedded structs the way
// encoding/json does, so a Receipt that embeds a Webhook reads as one flat object.
func fieldsOf(t reflect.Type) []field {
	var fields []field
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, options, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			fields = append(fields, fieldsOf(f.Type)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		opts := strings.Split(options, ",")
		fields = append(fields, field{
			name:     name,
			typ:      f.Type,
			optional: slices.Contains(opts, "omitempty") || slices.Contains(opts, "omitzero"),
			nullable: f.Tag.Get("schedule") == "nullable",
		})
	}
	return fields
}

// at joins a field path the way the TypeScript loader prints it: deliveries[1].event.subject.
func at(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// where names a field path, or the whole file when the path is empty.
func where(path string) string {
	if path == "" {
		return "the file"
	}
	return path
}

// check compares decoded JSON (maps, slices, strings, float64s, bools, nils) with the Go type it must
// fill, and adds one line per problem: unknown fields, missing fields, wrong types, values not allowed.
func check(value any, t reflect.Type, path string, problems *[]string) {
	fail := func(format string, args ...any) {
		*problems = append(*problems, where(path)+": "+fmt.Sprintf(format, args...))
	}
	if t.Kind() == reflect.Pointer {
		if value == nil {
			return
		}
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct && t.Implements(unionType) {
		object, ok := value.(map[string]any)
		if !ok {
			fail("must be object")
			return
		}
		union := reflect.Zero(t).Interface().(Union)
		tag, shapes := union.UnionTag(), union.Shapes()
		names := make([]string, 0, len(shapes))
		for name := range shapes {
			names = append(names, fmt.Sprintf("%q", name))
		}
		sort.Strings(names)
		picked, present := object[tag]
		name, isString := picked.(string)
		shape, known := shapes[name]
		switch {
		case !present:
			*problems = append(*problems, at(path, tag)+": missing")
		case !isString || !known:
			*problems = append(*problems, at(path, tag)+": must be one of "+strings.Join(names, ", "))
		default:
			check(value, reflect.TypeOf(shape), path, problems)
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		object, ok := value.(map[string]any)
		if !ok {
			fail("must be object")
			return
		}
		fields := fieldsOf(t)
		known := map[string]bool{}
		for _, f := range fields {
			known[f.name] = true
		}
		names := make([]string, 0, len(object))
		for name := range object {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if !known[name] {
				*problems = append(*problems, at(path, name)+": not a field here (misspelled?)")
			}
		}
		for _, f := range fields {
			inner, present := object[f.name]
			switch {
			case !present && !f.optional:
				*problems = append(*problems, at(path, f.name)+": missing")
			case !present || (inner == nil && f.nullable):
			default:
				check(inner, f.typ, at(path, f.name), problems)
			}
		}
	case reflect.Slice:
		items, ok := value.([]any)
		if !ok {
			fail("must be array")
			return
		}
		for i, item := range items {
			check(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i), problems)
		}
	case reflect.Map:
		object, ok := value.(map[string]any)
		if !ok || t.Key().Kind() != reflect.String {
			fail("must be object")
			return
		}
		for name, inner := range object {
			check(inner, t.Elem(), at(path, name), problems)
		}
	case reflect.String:
		text, ok := value.(string)
		if !ok {
			fail("must be string")
			return
		}
		if t.Implements(oneOfType) {
			allowed := reflect.Zero(t).Interface().(OneOf).Values()
			if !slices.Contains(allowed, text) {
				quoted := make([]string, len(allowed))
				for i, v := range allowed {
					quoted[i] = fmt.Sprintf("%q", v)
				}
				fail("must be one of %s", strings.Join(quoted, ", "))
			}
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		number, ok := value.(float64)
		if !ok || number != float64(int64(number)) {
			fail("must be integer")
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := value.(float64); !ok {
			fail("must be number")
		}
	case reflect.Bool:
		if _, ok := value.(bool); !ok {
			fail("must be boolean")
		}
	case reflect.Interface:
		// Anything goes.
	default:
		fail("has a Go type (%s) the schedule loader cannot check", t)
	}
}
