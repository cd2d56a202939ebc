package main

import (
	"strings"
	"testing"
)

// TestVersionLine: -version prints the program, the version and the commit
// -X main.build set as "version+commit", and leaves the commit out of a
// build that set none (make build).
func TestVersionLine(t *testing.T) {
	for build, want := range map[string]string{
		"0.1.0+0ab340a":                      "terraform-provider-compute 0.1.0 (commit 0ab340a)",
		"0.1.0-snapshot-0ab340a+0ab340af00d": "terraform-provider-compute 0.1.0-snapshot-0ab340a (commit 0ab340af00d)",
		"0.1.0":                              "terraform-provider-compute 0.1.0",
		"dev":                                "terraform-provider-compute dev",
	} {
		version, commit, _ := strings.Cut(build, "+")
		if got := versionLine(version, commit); got != want {
			t.Errorf("build %q: -version prints %q, want %q", build, got, want)
		}
	}
}
