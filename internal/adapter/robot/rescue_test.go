package robot

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestBootstrapNamesAnotherActiveBootConfiguration: Robot arms one boot
// configuration at a time, and answers a rescue activation on a server
// whose Linux installation is active with BOOT_ALREADY_ENABLED, as it
// does for rescue armed before. The bootstrap must not take that for its
// own earlier activation: it names the installation and how to withdraw
// it, and resets nothing, since a reset would boot the installer.
func TestBootstrapNamesAnotherActiveBootConfiguration(t *testing.T) {
	e := newMetalEnv(t)
	id, m := e.claim("node1")
	linux := url.Values{"dist": {"Debian 12 base"}, "arch": {"64"}, "lang": {"en"}, "authorized_key[]": {e.a.sshKey}}
	if err := e.a.c.Post(context.Background(), "/boot/{n}/linux", linux, nil, id); err != nil {
		t.Fatal(err)
	}
	e.robot.ResetStats()
	p, err := e.a.Bootstrap(context.Background(), id, e.request("node1"), adapter.Progress{}, nil)
	if !adapter.Is(err, adapter.InvalidState) || p.Phase != adapter.PhaseFailed || p.FailedPhase != adapter.PhaseRescue {
		t.Fatalf("Bootstrap = %+v, %v; want InvalidState in rescue", p, err)
	}
	if msg := err.Error(); !strings.Contains(msg, "a Linux installation (DELETE /boot/"+id+"/linux) active") {
		t.Errorf("the error does not name the active Linux installation and its way out: %v", err)
	}
	if n := e.robot.Stats()["POST /reset/{id}"]; n != 0 {
		t.Errorf("%d reset(s) sent to a server that would boot its Linux installation", n)
	}
	if m.Booted() == "rescue" {
		t.Errorf("the machine runs rescue")
	}
	e.noSecrets(err)
}
