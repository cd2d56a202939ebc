package proxmox

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// A running VM without an address says in its raw state what its agent
// did instead, so a create waiting for running shows the reason in its
// log; a lock and the agent's reason combine.
func TestEmulatorAgentReasonInRawState(t *testing.T) {
	c := newConfTarget(t)
	a := c.open(t, nil)
	ctx := context.Background()
	m, err := a.Create(ctx, callFor(a, "why"), emuReq("why"))
	if err != nil {
		t.Fatal(err)
	}
	waitRunning(t, a, m.ID)
	vmid, _ := strconv.Atoi(m.ID)
	raw := func(want string) {
		t.Helper()
		for _, read := range []func() (adapter.Machine, error){
			func() (adapter.Machine, error) { return c.open(t, nil).Get(ctx, m.ID) },
			func() (adapter.Machine, error) {
				list, err := c.open(t, nil).List(ctx)
				if err != nil || len(list) != 1 {
					return adapter.Machine{}, err
				}
				return list[0], nil
			},
		} {
			got, err := read()
			if err != nil || got.State != adapter.StatePending || got.RawState != want {
				t.Errorf("got %s %q (%v), want pending %q", got.State, got.RawState, err, want)
			}
		}
	}
	if err := c.emu.SetAgentFault(vmid, pveemu.AgentNotRunning); err != nil {
		t.Fatal(err)
	}
	raw("running (guest agent: not running)")
	if err := c.emu.SetConfigLock(vmid, "backup"); err != nil {
		t.Fatal(err)
	}
	raw("running (locked: backup; guest agent: not running)")
	if err := c.emu.SetConfigLock(vmid, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.emu.SetAgentFault(vmid, pveemu.AgentAnswers); err != nil {
		t.Fatal(err)
	}
	if err := a.setConfig(ctx, "pve1", vmid, url.Values{"agent": {"0"}}); err != nil {
		t.Fatal(err)
	}
	raw("running (guest agent: not configured)")
}

// An agent that answers with link-local and loopback addresses only (DHCP
// has not answered yet) is no address, and says so.
func TestPickAddressesNoGlobal(t *testing.T) {
	got := pickAddresses([]iface{
		{Name: "lo", Addresses: addrs("127.0.0.1", "::1")},
		{Name: "eth0", Addresses: addrs("169.254.3.3", "fe80::1")},
	})
	if got != (addresses{why: agentNoGlobal}) {
		t.Errorf("%+v", got)
	}
	if got := pickAddresses([]iface{{Name: "eth0", Addresses: addrs("192.0.2.7")}}); got.why != "" {
		t.Errorf("an address with a reason: %+v", got)
	}
}

// The post-clone config write turns the agent channel on when the
// template's config lacks it: without it PVE never asks the guest for
// addresses, and the VM would stay pending for ever.
func TestCreateEnablesTheAgent(t *testing.T) {
	for _, tc := range []struct{ template, want string }{
		{"", "1"},
		{"0", "1"},
		{"enabled=0,fstrim_cloned_disks=1", "1"},
		{"1,fstrim_cloned_disks=1", "1,fstrim_cloned_disks=1"},
		{"enabled=1", "enabled=1"},
	} {
		f := newFake(t)
		if tc.template == "" {
			delete(f.vms[9000].cfg, "agent")
		} else {
			f.vms[9000].cfg["agent"] = tc.template
		}
		a := testAccount(t, f, nil)
		m, err := a.Create(context.Background(), callFor(a, "agent"), createReq("agent"))
		if err != nil {
			t.Fatal(err)
		}
		f.mu.Lock()
		got := f.vms[mustAtoi(m.ID)].cfg["agent"]
		f.mu.Unlock()
		if got != tc.want {
			t.Errorf("template agent %q: the VM's agent is %q, want %q", tc.template, got, tc.want)
		}
	}
}

// A running VM whose agent is silent reads pending, yet offers the
// running VM's power actions, which need no agent; under a lock, or not
// ours, it offers none.
func TestSilentAgentKeepsPowerActions(t *testing.T) {
	a := &account{}
	running := adapter.ActionsFor(adapter.StateRunning, capabilities)
	for _, tc := range []struct {
		r    resource
		want []adapter.PowerAction
	}{
		{resource{Status: "running", Tags: "compute"}, running},
		{resource{Status: "running", Tags: "compute", Lock: "backup"}, []adapter.PowerAction{}},
		{resource{Status: "running", Tags: "prod"}, []adapter.PowerAction{}},
		{resource{Status: "stopped", Tags: "compute;cm-new"}, []adapter.PowerAction{}},
		{resource{Status: "stopped", Tags: "compute"}, adapter.ActionsFor(adapter.StateStopped, capabilities)},
	} {
		got := a.toMachine(tc.r, addresses{why: agentNotRunning})
		if !slices.Equal(got.Actions, tc.want) {
			t.Errorf("%+v: actions %v, want %v", tc.r, got.Actions, tc.want)
		}
		if tc.r.Status == "running" && got.State != adapter.StatePending {
			t.Errorf("%+v: %s without an address, want pending", tc.r, got.State)
		}
	}
}
