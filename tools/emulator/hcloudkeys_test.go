package main

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestSeedHcloudKeys: each name becomes a project key (ops and ci the
// examples' keys, any other a fresh one), and a name given twice is
// refused before anything is added.
func TestSeedHcloudKeys(t *testing.T) {
	e := hcloud.New(hcloud.Options{})
	if err := seedHcloudKeys(e, " ops, ci ,deploy,"); err != nil {
		t.Fatal(err)
	}
	// A name already seeded cannot be added again, even with another key:
	// AddSSHKey panics on it.
	for _, n := range []string{"ops", "ci", "deploy"} {
		fresh, err := publicKeyFor("fresh-" + n)
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("key %q was not seeded", n)
				}
			}()
			e.AddSSHKey(n, fresh)
		}()
	}
	err := seedHcloudKeys(hcloud.New(hcloud.Options{}), "ops,ops")
	if err == nil || !strings.Contains(err.Error(), `"ops" twice`) {
		t.Errorf("a name given twice: %v, want it refused", err)
	}
}
