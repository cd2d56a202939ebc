package hcloud

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// selector is a parsed label selector. The grammar is the one the Hetzner
// docs list: k=v, k==v, k!=v, k, !k, "k in (a,b)", "k notin (a,b)", joined
// by commas meaning AND. Negative forms (!=, notin) also match resources
// without the key, as in Kubernetes, whose selector language this is.
type selector []requirement

type requirement struct {
	key    string
	op     string // "=", "!=", "exists", "!exists", "in", "notin"
	values []string
}

var setExpr = regexp.MustCompile(`^(\S+)\s+(in|notin)\s*\((.*)\)$`)

// querySelector is the listing's label_selector, refused as the API
// refuses it: an invalid_input on the field.
func querySelector(q url.Values) (selector, *apiError) {
	sel, err := parseSelector(q.Get("label_selector"))
	if err != nil {
		return nil, invalidFields(fieldError{Name: "label_selector", Messages: []string{err.Error()}})
	}
	return sel, nil
}

func parseSelector(s string) (selector, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var sel selector
	for _, term := range splitTopLevel(s) {
		term = strings.TrimSpace(term)
		req, err := parseRequirement(term)
		if err != nil {
			return nil, err
		}
		sel = append(sel, req)
	}
	return sel, nil
}

func parseRequirement(term string) (requirement, error) {
	bad := func(why string) (requirement, error) {
		return requirement{}, fmt.Errorf("invalid label selector expression %q: %s", term, why)
	}
	if term == "" {
		return bad("empty expression")
	}
	if m := setExpr.FindStringSubmatch(term); m != nil {
		var values []string
		for v := range strings.SplitSeq(m[3], ",") {
			values = append(values, strings.TrimSpace(v))
		}
		if !validLabelKey(m[1]) {
			return bad("invalid key")
		}
		return requirement{key: m[1], op: m[2], values: values}, nil
	}
	if k, ok := strings.CutPrefix(term, "!"); ok {
		k = strings.TrimSpace(k)
		if !validLabelKey(k) {
			return bad("invalid key")
		}
		return requirement{key: k, op: "!exists"}, nil
	}
	for _, op := range []string{"!=", "==", "="} {
		if k, v, ok := strings.Cut(term, op); ok {
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !validLabelKey(k) {
				return bad("invalid key")
			}
			if !validLabelValue(v) {
				return bad("invalid value")
			}
			if op == "==" {
				op = "="
			}
			return requirement{key: k, op: op, values: []string{v}}, nil
		}
	}
	if !validLabelKey(term) {
		return bad("invalid key")
	}
	return requirement{key: term, op: "exists"}, nil
}

// splitTopLevel splits at commas outside parentheses, so the value list of
// "k in (a,b)" stays in one piece.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func (sel selector) matches(labels map[string]string) bool {
	for _, r := range sel {
		v, has := labels[r.key]
		var ok bool
		switch r.op {
		case "exists":
			ok = has
		case "!exists":
			ok = !has
		case "=":
			ok = has && v == r.values[0]
		case "!=":
			ok = !has || v != r.values[0]
		case "in":
			ok = has && slices.Contains(r.values, v)
		case "notin":
			ok = !has || !slices.Contains(r.values, v)
		}
		if !ok {
			return false
		}
	}
	return true
}

var (
	labelName    = regexp.MustCompile(`^[a-zA-Z0-9]([-a-zA-Z0-9_.]{0,61}[a-zA-Z0-9])?$`)
	dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

// validLabelKey follows the label rules of the API docs: an optional DNS
// subdomain prefix and a slash, then a name of at most 63 characters.
func validLabelKey(k string) bool {
	prefix, name, hasPrefix := strings.Cut(k, "/")
	if !hasPrefix {
		return labelName.MatchString(k)
	}
	return len(prefix) <= 253 && dnsSubdomain.MatchString(prefix) && labelName.MatchString(name)
}

func validLabelValue(v string) bool {
	return v == "" || labelName.MatchString(v)
}

// checkLabels validates labels as the API does on create and update.
func checkLabels(labels map[string]string) *fieldError {
	var msgs []string
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		switch {
		case !validLabelKey(k):
			msgs = append(msgs, fmt.Sprintf("label key %q is invalid", k))
		case strings.HasPrefix(k, "hetzner.cloud/"):
			msgs = append(msgs, fmt.Sprintf("label key %q uses the reserved prefix hetzner.cloud/", k))
		case !validLabelValue(labels[k]):
			msgs = append(msgs, fmt.Sprintf("label value %q of key %q is invalid", labels[k], k))
		}
	}
	if msgs == nil {
		return nil
	}
	return &fieldError{Name: "labels", Messages: msgs}
}
