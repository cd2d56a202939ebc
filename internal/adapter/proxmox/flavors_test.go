package proxmox

import (
	"strings"
	"testing"
)

// TestParseFlavorsTellsEveryProblemAtOnce: one plan shows every problem of
// every flavor, each with the value refused.
func TestParseFlavorsTellsEveryProblemAtOnce(t *testing.T) {
	_, err := parseFlavors(`{"huge":{"cores":100000,"memory_mib":-1,"disk_gib":0},"a b":{}}`)
	if err == nil {
		t.Fatal("absurd flavors accepted")
	}
	for _, want := range []string{`flavor "a b": a flavor name`, "cores must be from 1 to 512, not 100000", "memory_mib must be at least 16 (MiB), e.g. 2048, not -1", "disk_gib must be at least 1 (GiB), not 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v: does not say %q", err, want)
		}
	}
}
