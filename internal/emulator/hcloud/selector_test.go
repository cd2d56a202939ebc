package hcloud

import (
	"strings"
	"testing"
)

func TestSelector(t *testing.T) {
	labels := map[string]string{"env": "prod", "tier": "web", "example.com/owner": "ops", "flag": ""}
	for _, tc := range []struct {
		sel   string
		match bool
	}{
		{"", true},
		{"env=prod", true},
		{"env==prod", true},
		{"env=dev", false},
		{"env!=dev", true},
		{"missing!=x", true},
		{"env", true},
		{"missing", false},
		{"!missing", true},
		{"!env", false},
		{"flag", true},
		{"flag=", true},
		{"env in (dev,prod)", true},
		{"env in (dev, stage)", false},
		{"env notin (dev,stage)", true},
		{"missing notin (a)", true},
		{"env=prod,tier=web", true},
		{"env=prod,tier=db", false},
		{"env in (prod,dev),!missing,example.com/owner=ops", true},
	} {
		sel, err := parseSelector(tc.sel)
		if err != nil {
			t.Errorf("parse %q: %v", tc.sel, err)
			continue
		}
		if got := sel.matches(labels); got != tc.match {
			t.Errorf("%q matches = %v, want %v", tc.sel, got, tc.match)
		}
	}
	for _, bad := range []string{",", "env=prod,", "a b", "=x", "!", "k=v v", "k in (a"} {
		if _, err := parseSelector(bad); err == nil {
			t.Errorf("parse %q: no error", bad)
		}
	}
}

func TestLabelRules(t *testing.T) {
	for labels, ok := range map[string]bool{
		"env=prod":              true,
		"example.com/owner=ops": true,
		"just-a-key=":           true,
		"-bad=x":                false,
		"env=-bad":              false,
		"hetzner.cloud/thing=x": false,
		"Upper.Case/name=x":     false,
		"a_b.c-d=e_f.g-h":       true,
	} {
		i := strings.LastIndex(labels, "=")
		k, v := labels[:i], labels[i+1:]
		if got := checkLabels(map[string]string{k: v}) == nil; got != ok {
			t.Errorf("labels %s valid = %v, want %v", labels, got, ok)
		}
	}
}
