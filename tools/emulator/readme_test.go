package main

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeDocumentsTheCommand: the README's section on the standalone
// emulator names every flag and every control route that -h lists, so a
// user who never runs -h still learns of them, and neither text can gain
// one the other lacks.
func TestReadmeDocumentsTheCommand(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	var help strings.Builder
	_ = run(context.Background(), []string{"-h"}, &help)
	flags := regexp.MustCompile(`(?m)^  (-[a-z-]+) `).FindAllStringSubmatch(help.String(), -1)
	routes := regexp.MustCompile(`(?m)^  (GET|POST|DELETE) +(/_emulator/[a-z/{}]+)`).FindAllStringSubmatch(help.String(), -1)
	if len(flags) < 6 || len(routes) < 8 {
		t.Fatalf("found %d flags and %d control routes in -h; the pattern no longer reads it:\n%s", len(flags), len(routes), help.String())
	}
	for _, f := range flags {
		if !strings.Contains(readme, "`"+f[1]) {
			t.Errorf("README.md does not document the emulator's flag %s", f[1])
		}
	}
	for _, r := range routes {
		method, path := r[1], r[2]
		if method == "GET" {
			method = "curl -s $E" + path + " "
		} else {
			method = map[string]string{"POST": "curl -s $E" + path + " -d", "DELETE": "curl -s -X DELETE $E" + path}[method]
		}
		// A path parameter such as {n} is shown with a value in the README.
		want := regexp.MustCompile(regexp.MustCompile(`\\\{[a-z]+\\\}`).ReplaceAllString(regexp.QuoteMeta(method), `[0-9]+`))
		if !want.MatchString(readme) {
			t.Errorf("README.md has no example of %s %s (looked for %q)", r[1], path, want)
		}
	}
}
