package proxmox

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// pveschema.json is cut from PVE's API schema (pve-apidata.js, the array
// the API viewer ships) by tools/pveschema, for the routes the emulator
// serves: each method's parameters and returns as PVE declares them.
// Every request is checked against it before its handler runs, as
// pveproxy's handler does, so the emulator takes exactly what PVE takes.
//
//go:embed pveschema.json
var schemaJSON []byte

// schema is one JSON schema of PVE's dialect: a JSON schema plus format
// (a named check, or the keys of a property string), typetext,
// default_key and the alias/keyAlias pairs of property-string keys.
type schema struct {
	Type                 string             `json:"type"`
	Optional             int                `json:"optional"`
	Format               json.RawMessage    `json:"format"`
	Enum                 []any              `json:"enum"`
	Pattern              string             `json:"pattern"`
	Minimum              *number            `json:"minimum"`
	Maximum              *number            `json:"maximum"`
	MinLength            *int               `json:"minLength"`
	MaxLength            *int               `json:"maxLength"`
	Properties           map[string]*schema `json:"properties"`
	Items                *schema            `json:"items"`
	AdditionalProperties int                `json:"additionalProperties"`
	DefaultKey           int                `json:"default_key"`
	Alias                string             `json:"alias"`
	KeyAlias             string             `json:"keyAlias"`
	Default              any                `json:"default"`

	once    sync.Once
	keys    map[string]*schema // the property string's keys, nil for a named format
	named   string             // the named format, "" for none
	pattern *regexp.Regexp
}

// number is a bound as PVE writes it, mostly a JSON number and now and
// then a string ("minimum": "0").
type number float64

func (n *number) UnmarshalJSON(b []byte) error {
	var f float64
	if err := json.Unmarshal(b, &f); err == nil {
		*n = number(f)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	f, err := strconv.ParseFloat(s, 64)
	*n = number(f)
	return err
}

// apiMethod is one route's method in the schema.
type apiMethod struct {
	Parameters *schema `json:"parameters"`
	Returns    *schema `json:"returns"`
}

var (
	schemaOnce   sync.Once
	schemaRoutes map[string]*apiMethod // "METHOD /path" → method
)

// apiSchema returns the methods of the embedded schema by "METHOD /path".
func apiSchema() map[string]*apiMethod {
	schemaOnce.Do(func() {
		var byPath map[string]map[string]*apiMethod
		if err := json.Unmarshal(schemaJSON, &byPath); err != nil {
			panic("proxmox emulator: pveschema.json: " + err.Error())
		}
		schemaRoutes = map[string]*apiMethod{}
		for path, methods := range byPath {
			for method, m := range methods {
				schemaRoutes[method+" "+path] = m
			}
		}
	})
	return schemaRoutes
}

// checked runs h once the request's parameters, path values included,
// passed the route's schema (pveschema.json), as pveproxy checks them
// before a handler runs.
func checked(pattern string, h http.HandlerFunc) http.HandlerFunc {
	var names []string
	for _, seg := range strings.Split(pattern, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok && seg != "{action}" {
			names = append(names, strings.TrimSuffix(name, "}"))
		}
	}
	return func(w http.ResponseWriter, r *http.Request) {
		route := strings.Replace(pattern, "{action}", r.PathValue("action"), 1)
		values := url.Values{}
		for _, n := range names {
			values.Set(n, r.PathValue(n))
		}
		if err := checkRequest(route, r, values); err != nil {
			writeError(w, err)
			return
		}
		h(w, r)
	}
}

// SchemaRoutes are the routes the emulator serves as PVE's schema names
// them, "METHOD /path", one per status action.
func SchemaRoutes() []string {
	var out []string
	for pattern := range (&Emulator{}).handlers() {
		if strings.Contains(pattern, "{action}") {
			for a := range actionTasks {
				out = append(out, strings.Replace(pattern, "{action}", a, 1))
			}
			continue
		}
		out = append(out, pattern)
	}
	return out
}

// compile reads the format and pattern once.
func (s *schema) compile() {
	s.once.Do(func() {
		if len(s.Format) > 0 {
			if s.Format[0] == '{' {
				_ = json.Unmarshal(s.Format, &s.keys)
			} else {
				_ = json.Unmarshal(s.Format, &s.named)
			}
		}
		if s.Pattern != "" {
			// PVE anchors patterns: the value must match as a whole. Perl's
			// (?^:…), (?>…) and {,N} are written as Go reads them; a pattern
			// Go still cannot read is not checked.
			p := strings.NewReplacer("(?^:", "(?:", "(?>", "(?:", "{,", "{0,").Replace(s.Pattern)
			s.pattern, _ = regexp.Compile(`^(?:` + p + `)$`)
		}
	})
}

// lookup finds the parameter k: by name, or "net0" by "net[n]".
func (s *schema) lookup(k string) *schema {
	if p, ok := s.Properties[k]; ok {
		return p
	}
	if i := strings.IndexFunc(k, func(r rune) bool { return r >= '0' && r <= '9' }); i > 0 {
		if _, err := strconv.Atoi(k[i:]); err == nil {
			return s.Properties[k[:i]+"[n]"]
		}
	}
	return nil
}

// checkRequest checks r.Form and the path's values against the route's
// parameters as PVE's check does: an undefined parameter, a missing
// required one and a value of the wrong type or format are each a 400
// with the parameter's message in "errors".
func checkRequest(route string, r *http.Request, pathValues url.Values) *apiError {
	m := apiSchema()[route]
	if m == nil || m.Parameters == nil {
		return nil
	}
	all := url.Values{}
	for k, v := range r.Form {
		all[k] = v
	}
	for k, v := range pathValues {
		all[k] = v
	}
	errs := map[string]string{}
	for k, vals := range all {
		p := m.Parameters.lookup(k)
		if p == nil {
			if m.Parameters.AdditionalProperties == 0 {
				errs[k] = notDefined
			}
			continue
		}
		if msg := p.check(vals[len(vals)-1]); msg != "" {
			errs[k] = msg
		}
	}
	for k, p := range m.Parameters.Properties {
		if p.Optional == 0 && !strings.HasSuffix(k, "[n]") && all.Get(k) == "" {
			if _, given := all[k]; !given {
				errs[k] = "property is missing and it is not optional"
			}
		}
	}
	if len(errs) > 0 {
		return paramError(errs)
	}
	return nil
}

// check is PVE's check_prop for a value given as text: "" when v is
// good, else the message PVE gives.
func (s *schema) check(v string) string {
	s.compile()
	switch s.Type {
	case "boolean":
		if _, ok := parseBool(v); !ok {
			return fmt.Sprintf("type check ('boolean') failed - got '%s'", v)
		}
		return ""
	case "integer", "number":
		return s.checkNumber(v)
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return fmt.Sprint(e) == v }) {
		names := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			names[i] = fmt.Sprint(e)
		}
		return fmt.Sprintf("value '%s' does not have a value in the enumeration '%s'", v, strings.Join(names, ", "))
	}
	if s.MaxLength != nil && len(v) > *s.MaxLength {
		return fmt.Sprintf("value may only be %d characters long", *s.MaxLength)
	}
	if s.MinLength != nil && len(v) < *s.MinLength {
		return fmt.Sprintf("value must be at least %d characters long", *s.MinLength)
	}
	if s.pattern != nil && !s.pattern.MatchString(v) {
		return "value does not match the regex pattern"
	}
	if s.keys != nil {
		if _, msg := parsePropertyString(s.keys, v); msg != "" {
			return "invalid format - " + msg
		}
		return ""
	}
	if s.named != "" {
		if msg := checkFormat(s.named, v); msg != "" {
			return "invalid format - " + msg
		}
	}
	return ""
}

var (
	integerRE = regexp.MustCompile(`^[+-]?\d+$`)
	numberRE  = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)
)

func (s *schema) checkNumber(v string) string {
	re := numberRE
	if s.Type == "integer" {
		re = integerRE
	}
	if !re.MatchString(v) {
		return fmt.Sprintf("type check ('%s') failed - got '%s'", s.Type, v)
	}
	f, _ := strconv.ParseFloat(v, 64)
	if s.Minimum != nil && f < float64(*s.Minimum) {
		return fmt.Sprintf("value must have a minimum value of %s", strconv.FormatFloat(float64(*s.Minimum), 'f', -1, 64))
	}
	if s.Maximum != nil && f > float64(*s.Maximum) {
		return fmt.Sprintf("value must have a maximum value of %s", strconv.FormatFloat(float64(*s.Maximum), 'f', -1, 64))
	}
	return ""
}

// parseBool reads a PVE boolean: 1/0, true/false, yes/no, on/off.
func parseBool(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "1", "true", "yes", "on":
		return true, true
	case "0", "false", "no", "off":
		return false, true
	}
	return false, false
}
