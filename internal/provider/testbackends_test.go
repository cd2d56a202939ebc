//go:build testbackends

package provider

import (
	"slices"
	"testing"
)

// TestTestBackendsRegistered: a build with the testbackends tag registers
// the shipped backends first, in their order, and then each backend kept
// in the tests, from its own testbackend_NAME.go (the registry refuses a
// kind registered twice).
func TestTestBackendsRegistered(t *testing.T) {
	got := DefaultRegistry().Definitions()
	var kinds []string
	for _, d := range got {
		kinds = append(kinds, d.Kind)
	}
	if !slices.Equal(kinds[:3], []string{"hcloud", "proxmox", "robot"}) || !slices.Contains(kinds[3:], "toycloud") {
		t.Errorf("the registry of a build with the testbackends tag holds %v, want the shipped backends and then toycloud", kinds)
	}
}
