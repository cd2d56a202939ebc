package instance_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// TestProxmoxRefreshWithSilentAgents: a refresh of ten instances whose
// guest agents never answer finishes, asks each agent once (ten agent
// requests per refresh, no retries), reads each VM as silent and keeps the
// VMs.
func TestProxmoxRefreshWithSilentAgents(t *testing.T) {
	t.Parallel()
	const n = 10
	p := acctest.NewProxmox(t)
	cfg := proxmoxMany(p, n)
	agent := "GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces"
	silence := func() {
		if err := p.PVE.SetAgentFault(0, pveemu.AgentHangs); err != nil {
			t.Fatal(err)
		}
		p.PVE.ResetStats()
	}
	asked := func(s *terraform.State) error {
		if got := p.Requests(agent); got != n {
			return fmt.Errorf("the refresh sent %d agent requests, want one per VM (%d)", got, n)
		}
		// The emulator holds each agent request until its client leaves,
		// so each VM reads as silent, not as failed. That agent_timeout
		// (the account's default, 2s) and not the general request bound
		// ends the request is proven by the adapter's own tests
		// (TestSilentAgentIsBounded), on a machine of any speed; a wall
		// time here would only say how busy this one is.
		for addr, r := range s.RootModule().Resources {
			if r.Type != "compute_instance" {
				continue
			}
			if got, want := r.Primary.Attributes["raw_state"], "running (guest agent: no answer within 2s)"; got != want {
				return fmt.Errorf("%s: raw_state %q, want %q", addr, got, want)
			}
		}
		if len(p.Machines()) != n {
			return fmt.Errorf("%d VMs after the refresh, want %d", len(p.Machines()), n)
		}
		return nil
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             p.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: cfg},
			// The VMs read as pending without an address, which changes
			// nothing the configuration sets.
			{PreConfig: silence, RefreshState: true, Check: asked},
			{PreConfig: p.PVE.ResetStats, RefreshState: true, Check: asked},
			{PreConfig: func() { _ = p.PVE.SetAgentFault(0, pveemu.AgentAnswers) }, Config: cfg},
		},
	})
}

// TestProxmoxCreateSaysTheAgentIsNotRunning: a guest whose agent never
// starts keeps a create waiting for an address; when the create's time
// runs out the error says why (the raw state names the guest agent's
// answer), instead of only that the wait timed out.
func TestProxmoxCreateSaysTheAgentIsNotRunning(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	if err := p.PVE.SetAgentFault(0, pveemu.AgentNotRunning); err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			// The clone and its config writes take milliseconds on a quiet
			// machine and have taken over ten seconds on one whose cores
			// were busy; the wait for the address is what must run out, so
			// the bound leaves them room to spare on any machine.
			Config: p.Account() + p.Instance("agentless", `timeouts {
    create = "45s"
  }`),
			ExpectError: acctest.Match(`last seen: pending \(raw: running \(guest agent: not running\)\)`),
		}},
	})
}
