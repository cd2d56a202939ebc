package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeStatesTheGoVersionOfGoMod: the prerequisites name the Go
// version go.mod requires, which is what the go command enforces.
func TestReadmeStatesTheGoVersionOfGoMod(t *testing.T) {
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Go " + string(m[1]) + " or later"; !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not say %q, which go.mod requires", want)
	}
}

// TestUserTextSpeaksToUsers: what a user reads (the README, the messages
// of the scripts they run) describes their machine, never the machines of
// the people who develop the provider.
func TestUserTextSpeaksToUsers(t *testing.T) {
	ours := regexp.MustCompile(`(?i)(the project's|our) (machines|environment|hosts|ci runners)`)
	for _, f := range []string{"README.md", "scripts/demo.sh", "scripts/testacc-emulator.sh", "scripts/install-check.sh", "scripts/test-matrix.sh", "scripts/docs.sh"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if loc := ours.FindIndex(b); loc != nil {
			line := strings.Count(string(b[:loc[0]]), "\n") + 1
			t.Errorf("%s:%d speaks of %q; say what the user's own machine needs instead", f, line, b[loc[0]:loc[1]])
		}
	}
}
