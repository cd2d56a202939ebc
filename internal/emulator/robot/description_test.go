package robot_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"
)

// The Robot webservice's API description travels with the repository as
// a byte-identical copy, so the walk runs on any clone;
// $COMPUTE_SPECS_DIR names another directory to read it from, and
// TestDescriptionCopyIsTheOriginal holds the copy to the original
// wherever that is kept.
const descriptionFile = "hetzner-robot-openapi.yaml"

// descriptionCopy is the copy the walk reads by default.
var descriptionCopy = filepath.Join("testdata", descriptionFile)

// schema is one OpenAPI 3.0 schema object, as far as the description uses
// it.
type schema struct {
	Ref                  string             `yaml:"$ref"`
	Type                 string             `yaml:"type"`
	Nullable             bool               `yaml:"nullable"`
	Properties           map[string]*schema `yaml:"properties"`
	AdditionalProperties any                `yaml:"additionalProperties"`
	Items                *schema            `yaml:"items"`
	Required             []string           `yaml:"required"`
}

type operation struct {
	Description string `yaml:"description"`
	RequestBody *struct {
		Content map[string]struct {
			Schema *schema `yaml:"schema"`
		} `yaml:"content"`
	} `yaml:"requestBody"`
	Responses map[string]struct {
		Content map[string]struct {
			Schema *schema `yaml:"schema"`
		} `yaml:"content"`
	} `yaml:"responses"`
}

type description struct {
	Paths      map[string]map[string]*operation `yaml:"paths"`
	Components struct {
		Schemas map[string]*schema `yaml:"schemas"`
	} `yaml:"components"`
}

var (
	descOnce sync.Once
	desc     *description
	descErr  error
)

// loadDescription reads and parses the description once per test binary.
func loadDescription(t *testing.T) *description {
	t.Helper()
	descOnce.Do(func() {
		path := descriptionCopy
		if dir := os.Getenv("COMPUTE_SPECS_DIR"); dir != "" {
			path = filepath.Join(dir, descriptionFile)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			descErr = fmt.Errorf("reading the Robot API description: %w", err)
			return
		}
		var d description
		if err := yaml.Unmarshal(b, &d); err != nil {
			descErr = fmt.Errorf("parsing %s: %w", descriptionFile, err)
			return
		}
		desc = &d
	})
	if descErr != nil {
		t.Fatal(descErr)
	}
	return desc
}

// placeholder is any "{…}" path segment: the emulator's {n} and the
// description's {server_number} name the same segment.
var placeholder = regexp.MustCompile(`\{[^}]*\}`)

func normalPath(p string) string { return placeholder.ReplaceAllString(p, "{}") }

// op finds the description's operation for an emulator route pattern
// ("GET /server/{n}"), and its path as the description writes it.
func (d *description) op(pattern string) (*operation, string) {
	method, path, _ := strings.Cut(pattern, " ")
	for p, ops := range d.Paths {
		if normalPath(p) == normalPath(path) {
			return ops[strings.ToLower(method)], p
		}
	}
	return nil, ""
}

// statuses are the success statuses an operation documents: its responses'
// keys and a "status code NNN" its text names (Robot's 201 CREATED is
// written only there).
var statusInText = regexp.MustCompile(`status code (\d{3})`)

func (o *operation) documents(status int) bool {
	if _, ok := o.Responses[strconv.Itoa(status)]; ok {
		return true
	}
	for _, m := range statusInText.FindAllStringSubmatch(o.Description, -1) {
		if m[1] == strconv.Itoa(status) {
			return true
		}
	}
	return false
}

// responseSchema is the JSON schema of the answer with status: the
// response for that status, for a success the 200 one it stands beside
// (a 201 the text names), for a failure the default.
func (o *operation) responseSchema(status int) *schema {
	keys := []string{strconv.Itoa(status)}
	if status < 400 {
		keys = append(keys, "200")
	}
	keys = append(keys, "default")
	for _, k := range keys {
		if r, ok := o.Responses[k]; ok {
			if c, ok := r.Content["application/json"]; ok {
				return c.Schema
			}
			return nil
		}
	}
	return nil
}

// requiredForm is what the operation's form-encoded body must carry.
func (o *operation) requiredForm() []string {
	if o.RequestBody == nil {
		return nil
	}
	if c, ok := o.RequestBody.Content["application/x-www-form-urlencoded"]; ok && c.Schema != nil {
		return c.Schema.Required
	}
	return nil
}

func (d *description) resolve(s *schema) *schema {
	for s != nil && s.Ref != "" {
		s = d.Components.Schemas[strings.TrimPrefix(s.Ref, "#/components/schemas/")]
	}
	return s
}

// open says whether an object schema leaves its fields open: it lists
// none, or allows more than it lists.
func (s *schema) open() bool {
	if len(s.Properties) == 0 {
		return true
	}
	switch a := s.AdditionalProperties.(type) {
	case nil:
		return false
	case bool:
		return a
	default:
		return true
	}
}

// conform lists where value differs from s: a field the schema lacks or
// lacks where it lists it, a JSON type other than its type, a null where
// it is not nullable. A schema without a type takes any value.
func (d *description) conform(at string, value any, s *schema) []string {
	s = d.resolve(s)
	if s == nil {
		return nil
	}
	if value == nil {
		if s.Nullable || (s.Type == "" && len(s.Properties) == 0) {
			return nil
		}
		return []string{at + ": null, but the description's schema is not nullable"}
	}
	typ := s.Type
	if typ == "" && len(s.Properties) > 0 {
		typ = "object"
	}
	switch typ {
	case "":
		return nil
	case "object":
		m, ok := value.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %s, want an object", at, jsonType(value))}
		}
		var out []string
		for _, k := range sortedKeys(m) {
			if p, ok := s.Properties[k]; ok {
				out = append(out, d.conform(at+"."+k, m[k], p)...)
			} else if !s.open() {
				out = append(out, at+"."+k+": a field the description's schema does not have")
			}
		}
		for _, k := range sortedKeys(s.Properties) {
			if _, ok := m[k]; !ok {
				out = append(out, at+"."+k+": missing, but the description's schema has it")
			}
		}
		return out
	case "array":
		a, ok := value.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %s, want an array", at, jsonType(value))}
		}
		var out []string
		for i, v := range a {
			out = append(out, d.conform(fmt.Sprintf("%s[%d]", at, i), v, s.Items)...)
		}
		return out
	}
	if got := jsonType(value); got != typ && !(typ == "number" && got == "integer") {
		return []string{fmt.Sprintf("%s: %s %s, want %s", at, got, compact(value), typ)}
	}
	return nil
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
