package instance_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// routeStop is the destroy's first write to a running VM; routeListing the
// read each delete attempt starts with.
const (
	routeStop    = "POST /nodes/{node}/qemu/{vmid}/status/stop"
	routeListing = "GET /cluster/resources"
)

// TestProxmoxDestroyWaitsForSomeoneElsesLock: a VM locked by another task
// (a backup someone started) while terraform destroys it is not failed at
// once: each delete attempt reads the VM, finds the lock and is retried
// without sending anything to the VM (no stop of a VM under backup), and
// the VM is stopped and deleted once the lock goes. The emulator releases
// the lock once the destroy has read the cluster's VMs a few times more
// than its refresh does, and the destroy sends exactly one stop, after.
func TestProxmoxDestroyWaitsForSomeoneElsesLock(t *testing.T) {
	t.Parallel()
	// A refresh reads the listing at most twice (the shared listing and the
	// confirming read); every delete attempt after it reads it once.
	const reads = 2 + 3
	p := acctest.NewProxmox(t)
	c := acctest.NewCLI(t, p.Account()+p.Instance("locked"))
	c.MustRun("apply", "-auto-approve", "-input=false")
	vm, ok := p.Named("locked")
	if !ok || vm.Status != "running" {
		t.Fatalf("the apply made %+v, want VM locked running", vm)
	}
	if err := p.PVE.SetConfigLock(vm.VMID, "backup"); err != nil {
		t.Fatal(err)
	}
	p.PVE.ResetStats()
	released := make(chan int, 1)
	go func() {
		// A condition wait on the emulator's counter, not a sleep: the
		// lock goes once the provider was refused `refused` times.
		for p.Requests(routeListing) < reads {
			time.Sleep(5 * time.Millisecond)
		}
		stops := p.Requests(routeStop)
		if err := p.PVE.SetConfigLock(vm.VMID, ""); err != nil {
			t.Error(err)
		}
		released <- stops
	}()
	out := c.MustRun("destroy", "-auto-approve", "-input=false")
	var atRelease int
	select {
	case atRelease = <-released:
	default:
		t.Fatalf("the destroy finished before the lock was released, after %d stop attempts:\n%s", p.Requests(routeStop), out)
	}
	if atRelease != 0 {
		t.Errorf("%d stop requests reached the VM while it was locked, want none", atRelease)
	}
	if after := p.Requests(routeStop) - atRelease; after != 1 {
		t.Errorf("%d stop requests after the lock went, want 1", after)
	}
	if err := p.CheckDestroy(nil); err != nil {
		t.Error(err)
	}
}

// TestProxmoxDestroyRefusesChangedCertificate: a server whose certificate
// no longer matches the account's tls_fingerprint (renewed, or someone in
// the middle) gets no request during a destroy: the destroy fails naming
// both fingerprints and the way out, the token is never sent, and the VM
// stays. With the pin updated to the new certificate, the destroy deletes
// it.
func TestProxmoxDestroyRefusesChangedCertificate(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	c := acctest.NewCLI(t, p.Account()+p.Instance("pinned"))
	c.MustRun("apply", "-auto-approve", "-input=false")
	vm, ok := p.Named("pinned")
	if !ok {
		t.Fatal("the apply made no VM pinned")
	}
	old := p.Fingerprint
	fresh := p.RotateCertificate(t)
	before := p.PVE.Authorized()
	out, err := c.Run("destroy", "-auto-approve", "-input=false")
	host := strings.TrimPrefix(p.Endpoint, "https://")
	refusal := acctest.Match(regexp.QuoteMeta(host) + ` offered a certificate with SHA-256 fingerprint ` + regexp.QuoteMeta(fresh) +
		`, not the pinned ` + regexp.QuoteMeta(old) + `; nothing was sent to it\. Compare with .pvenode cert info.`)
	if err == nil || !refusal.MatchString(out) {
		t.Errorf("the destroy through a changed certificate: %v, want it refused naming both fingerprints and the way out:\n%s", err, out)
	}
	if n := p.PVE.Authorized() - before; n != 0 {
		t.Errorf("%d requests carried the token to a server whose certificate does not match the pin", n)
	}
	if _, ok := p.PVE.VM(vm.VMID); !ok {
		t.Fatalf("VM %d is gone although the destroy was refused", vm.VMID)
	}

	// The way out: the new pin, written to the state without a refresh
	// (the refresh would still go through the state's old pin).
	c.Config(strings.Replace(p.Account(), old, fresh, 1) + p.Instance("pinned"))
	c.MustRun("apply", "-auto-approve", "-input=false", "-refresh=false")
	c.MustRun("destroy", "-auto-approve", "-input=false")
	if err := p.CheckDestroy(nil); err != nil {
		t.Error(err)
	}
}
