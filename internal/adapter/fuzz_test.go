package adapter

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The parsers of what users type and what state holds: each must refuse
// cleanly (never panic), never repeat a refused value that may be a secret,
// and give back what it read when its output is written and read again.
// `go test` runs the seeds; `make fuzz` explores from them.

func FuzzParseLocator(f *testing.F) {
	for _, s := range []string{
		`{"endpoint":"https://api.hetzner.cloud/v1","kind":"hcloud","location":"fsn1","name":"prod-cloud","token":"env://HCLOUD_TOKEN"}`,
		`{"kind":"robot","name":"metal","user":"provider://robot_user"}`,
		`hcloud:endpoint=https%3A%2F%2Fapi.hetzner.cloud%2Fv1&token=env%3A%2F%2FHCLOUD_TOKEN`,
		`hcloud:a=1&a=2`, `{"kind":1}`, `{"kind":"x"}{}`, `{`, `:`, "", `{"kind":"x","\xff":"y"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLocator(s)
		if err != nil {
			checkNotRepeated(t, "ParseLocator", s, err)
			return
		}
		if l.Kind == "" {
			t.Fatalf("ParseLocator(%q) accepted a locator without a kind", s)
		}
		again, err := ParseLocator(l.String())
		if err != nil {
			t.Fatalf("ParseLocator(%q).String() = %q does not parse: %v", s, l.String(), err)
		}
		if again.String() != l.String() {
			t.Fatalf("round trip of %q: %q then %q", s, l.String(), again.String())
		}
	})
}

func FuzzParseInstanceID(f *testing.F) {
	for _, s := range []string{
		`{"endpoint":"https://api.hetzner.cloud/v1","kind":"hcloud","name":"prod"}/4711`,
		`{"kind":"proxmox","endpoint":"https://127.0.0.1:8006/api2/json"}/pve1/100`,
		`hcloud:endpoint=x/1`, `/1`, `x/`, "", `{"kind":"a"}/` + "\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, id, err := ParseInstanceID(s)
		if err != nil {
			checkNotRepeated(t, "ParseInstanceID", s, err)
			return
		}
		if id == "" || strings.Contains(id, "/") {
			t.Fatalf("ParseInstanceID(%q) gave machine id %q", s, id)
		}
		l2, id2, err := ParseInstanceID(InstanceID(l, id))
		if err != nil || id2 != id || l2.String() != l.String() {
			t.Fatalf("round trip of %q: %q %q %v", s, l2.String(), id2, err)
		}
	})
}

func FuzzParseRef(f *testing.F) {
	for _, s := range []string{
		"env://HCLOUD_TOKEN", "file:///run/secrets/token", "provider://robot_password", "env://", "file://relative",
		"provider://a b", "https://example.com", "hcloud-token-value", "env://Q2hhbmdlTWVQbGVhc2UxMjM0NTY3ODkwYWJjZGVm", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		scheme, name, err := ParseRef(s)
		if err != nil {
			if !Is(err, InvalidConfig) {
				t.Fatalf("ParseRef(%q): %v is not InvalidConfig", s, err)
			}
			// What follows the scheme may be a secret pasted in its place.
			// The message may show the scheme, and its own words may hold
			// any value made of them.
			msg := fixedText.Replace(err.Error())
			if sch, rest, ok := strings.Cut(s, "://"); ok {
				msg = strings.ReplaceAll(strings.ReplaceAll(msg, sch+"://"+hidden, ""), strconv.Quote(sch), "")
				if len(rest) >= 6 && strings.Contains(msg, rest) && !strings.Contains(ownWords, rest) {
					t.Fatalf("ParseRef(%q) repeats the part after the scheme: %v", s, err)
				}
			} else if len(s) >= 6 && strings.Contains(msg, s) && !strings.Contains(ownWords, s) {
				t.Fatalf("ParseRef(%q) repeats the value: %v", s, err)
			}
			return
		}
		if scheme+"://"+name != s || !isRefScheme(scheme) || name == "" {
			t.Fatalf("ParseRef(%q) = %q, %q", s, scheme, name)
		}
	})
}

func FuzzCanonicalEndpoint(f *testing.F) {
	for _, s := range []string{
		"https://api.hetzner.cloud/v1", "HTTPS://API.Hetzner.Cloud:443/v1/", "http://127.0.0.1:80/", "https://[::1]:8006/api2/json",
		"https://:", "//://A", "not a url", "", "https://x/%2F/", "http://[fe80::1%25en0]:8080/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := CanonicalEndpoint(s)
		if CanonicalEndpoint(c) != c {
			t.Fatalf("CanonicalEndpoint is not stable: %q → %q → %q", s, c, CanonicalEndpoint(c))
		}
		if utf8.ValidString(s) && !utf8.ValidString(c) {
			t.Fatalf("CanonicalEndpoint(%q) = %q is not UTF-8", s, c)
		}
	})
}

// fixedText removes the fixed text of ParseRef's messages, which may hold
// any short value: the syntax hint and the two asides, spelt out here and
// not matched by pattern, so a reference printed inside an aside of another
// wording is still seen.
var fixedText = strings.NewReplacer(
	refSyntax, "",
	"(the value is not shown, it may be a secret)", "",
	"(the rest is not shown, it may be a secret)", "",
)

// ownWords is the rest of the wording of ParseRef's messages.
const ownWords = "the value is not a secret reference; secret reference is malformed; scheme is not known; use"

// checkNotRepeated fails when a refusal quotes the refused value, which may
// be a secret pasted into an id.
func checkNotRepeated(t *testing.T, what, s string, err error) {
	t.Helper()
	if !Is(err, InvalidInput) {
		t.Fatalf("%s(%q): %v is not InvalidInput", what, s, err)
	}
	if len(s) >= 8 && strings.Contains(err.Error(), s) {
		t.Fatalf("%s(%q) repeats the value: %v", what, s, err)
	}
}
