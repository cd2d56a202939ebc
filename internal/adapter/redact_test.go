package adapter

import (
	"net/url"
	"strings"
	"testing"
)

// A Hetzner Cloud token is 64 characters of mixed case; sentinelTok is one.
const sentinelTok = "SENTINELtok0b7e1c0ffee42aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

func TestRedacted(t *testing.T) {
	for in, want := range map[string]string{
		// URLs: scheme, host and port, a path of plain segments.
		"http://127.0.0.1:8080/v1":               "http://127.0.0.1:8080/v1",
		"https://api.hetzner.cloud/v1":           "https://api.hetzner.cloud/v1",
		"https://proxy.example.com/hcloud/v1/":   "https://proxy.example.com/hcloud/v1/",
		"http://[::1]:8080/v1":                   "http://[::1]:8080/v1",
		"https://api.example.com/" + sentinel:    "https://api.example.com/…",
		"https://api.example.com/v1/Pa55w0rdXyz": "https://api.example.com/…",
		// Never a user part, query or fragment.
		"https://user:" + sentinel + "@api.example.com/v1":    "https://…@api.example.com/v1",
		"https://user:" + sentinel + "%zz@api.example.com/v1": "https://…@api.example.com/v1",
		"https://user:p?" + sentinel + "@api.example.com/v1":  "https://…@api.example.com/v1",
		"https://api.example.com/v1?token=" + sentinel:        "https://api.example.com/v1?…",
		"https://api.example.com/v1#" + sentinel:              "https://api.example.com/v1#…",
		"https://" + sentinel + " x/v1":                       "https://…/v1",
		// References: whole when well formed, else the scheme alone.
		"env://HCLOUD_TOKEN":        "env://HCLOUD_TOKEN",
		"file:///run/secrets/token": "file:///run/secrets/token",
		"provider://hcloud":         "provider://hcloud",
		"env://" + sentinel:         "env://…",
		"file://" + sentinel:        "file://…",
		"provider://a b" + sentinel: "provider://…",
		// Plain words as they are, anything else not at all.
		"fsn1":            "fsn1",
		"prod-cloud":      "prod-cloud",
		"Not A Location":  "…",
		sentinel:          "…",
		sentinelTok:       "…",
		"":                "…",
		sentinel + "://x": "…",
	} {
		if got := Redacted(in); got != want {
			t.Errorf("Redacted(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactID(t *testing.T) {
	endpoint := url.QueryEscape
	for in, want := range map[string]string{
		// What the issue saw: a raw token in an import id.
		"hcloud:endpoint=" + endpoint("https://api.hetzner.cloud/v1") + "&location=fsn1&token=" + sentinelTok + "/42": "hcloud:endpoint=https://api.hetzner.cloud/v1&location=fsn1&token=…/42",
		// Well-formed references and endpoints are shown.
		"hcloud:endpoint=" + endpoint("http://127.0.0.1:8080/v1") + "&token=" + endpoint("env://HCLOUD_TOKEN"): "hcloud:endpoint=http://127.0.0.1:8080/v1&token=env://HCLOUD_TOKEN",
		// An endpoint with a credential in its user part, path or query.
		"hcloud:endpoint=" + endpoint("https://u:"+sentinel+"@api.example.com/v1") + "&token=" + endpoint("env://T"): "hcloud:endpoint=https://…@api.example.com/v1&token=env://T",
		"hcloud:endpoint=" + endpoint("https://api.example.com/"+sentinel+"/v1"):                                     "hcloud:endpoint=https://api.example.com/…",
		"hcloud:endpoint=" + endpoint("https://api.example.com/v1?key="+sentinel):                                    "hcloud:endpoint=https://api.example.com/v1?…",
		// A malformed reference shows only its scheme.
		"hcloud:token=" + endpoint("env://"+sentinel):   "hcloud:token=env://…",
		"hcloud:token=" + endpoint("vault://"+sentinel): "hcloud:token=vault://…",
		// Unescaped, as a user may type it.
		"hcloud:endpoint=https://api.example.com/v1&token=" + sentinel + "/42": "hcloud:endpoint=https://api.example.com/v1&token=…/42",
		// Machine ids, kinds and setting names only when plain.
		"hcloud:token=" + endpoint("env://T") + "/" + sentinel: "hcloud:token=env://T/…",
		"hcloud:token=" + endpoint("env://T") + "/abc":         "hcloud:token=env://T/abc",
		sentinel + ":" + sentinel + "=x":                       "…:…=…",
		"hcloud:a=%zz" + sentinel:                              "hcloud:…",
		// The JSON form: an account id, and an import id.
		`{"endpoint":"https://api.hetzner.cloud/v1","kind":"hcloud","name":"prod-cloud","token":"` + sentinelTok + `"}`: `{"endpoint":"https://api.hetzner.cloud/v1","kind":"hcloud","name":"prod-cloud","token":"…"}`,
		`{"kind":"hcloud","name":"` + sentinelTok + `","token":"env://T"}/42`:                                           `{"kind":"hcloud","name":"…","token":"env://T"}/42`,
		`{"kind":"hcloud","` + sentinel + `":"x"}`:                                                                      `{"kind":"hcloud","…":"…"}`,
		`{"kind":"hcloud","token":"` + sentinel:                                                                         `{…}`,
		// Not ids at all.
		sentinelTok:                    "…",
		"prod-cloud":                   "prod-cloud",
		"https://u:" + sentinel + "@h": "https://…@h",
		"/42":                          "…/42",
	} {
		if got := RedactID(in); got != want {
			t.Errorf("RedactID(%q)\n got %q\nwant %q", in, got, want)
		}
	}
	l := Locator{Kind: "hcloud", Settings: map[string]string{"token": sentinel}}
	if got := l.Redacted(); got != `{"kind":"hcloud","token":"…"}` {
		t.Errorf("Locator.Redacted() = %q", got)
	}
}

// TestParseErrorsNeverEchoTheValue: the parsers' errors name what is wrong
// without the value; callers show it redacted.
func TestParseErrorsNeverEchoTheValue(t *testing.T) {
	for _, s := range []string{
		sentinelTok,
		"hcloud:token=" + sentinelTok + "%zz",
		"hcloud:token=" + sentinelTok + "&token=x",
		"hcloud:token=" + sentinelTok + "/",
	} {
		_, err1 := ParseLocator(s)
		_, _, err2 := ParseInstanceID(s)
		for _, err := range []error{err1, err2} {
			if err == nil || strings.Contains(err.Error(), "SENTINEL") {
				t.Errorf("%q: %v", s, err)
			}
		}
	}
	for _, ref := range []string{
		"env://" + sentinel, "file://" + sentinel, "provider://" + sentinel + "/x", "vault://" + sentinel,
		"https://user:" + sentinel + "@vault.example.com", "env://user:" + sentinel + "@x", "user:" + sentinel + "@host://x",
	} {
		_, _, err := ParseRef(ref)
		if err == nil || strings.Contains(err.Error(), "SENTINEL") {
			t.Errorf("ParseRef(%q): %v, want an error that does not repeat the name part", ref, err)
		}
	}
}

func TestShowAndQuoted(t *testing.T) {
	if got := Show("accounts[0]", Redacted(sentinel)); got != "accounts[0] (the value is not shown, it may be a secret)" {
		t.Errorf("Show of a hidden value = %q", got)
	}
	if got := Show("location", Redacted("fsn1")); got != `location = "fsn1"` {
		t.Errorf("Show of a plain value = %q", got)
	}
	if got := Quoted(Redacted(sentinel)); strings.Contains(got, "SENTINEL") || !strings.Contains(got, "not shown") {
		t.Errorf("Quoted = %q", got)
	}
}
