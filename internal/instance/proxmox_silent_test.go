package instance_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// TestProxmoxRefreshWithSilentAgents: a refresh of ten instances whose
// guest agents never answer finishes within agent_timeout, asks each agent
// once (ten agent requests per refresh, no retries) and keeps the VMs.
func TestProxmoxRefreshWithSilentAgents(t *testing.T) {
	t.Parallel()
	const n = 10
	p := acctest.NewProxmox(t)
	cfg := proxmoxMany(p, n)
	agent := "GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces"
	var started time.Time
	silence := func() {
		if err := p.PVE.SetAgentFault(0, pveemu.AgentHangs); err != nil {
			t.Fatal(err)
		}
		p.PVE.ResetStats()
		started = time.Now()
	}
	asked := func(*terraform.State) error {
		if got := p.Requests(agent); got != n {
			return fmt.Errorf("the refresh sent %d agent requests, want one per VM (%d)", got, n)
		}
		// Bounded by agent_timeout (2s) per request, sixteen at once.
		if took := time.Since(started); took > 20*time.Second {
			return fmt.Errorf("the refresh took %s with silent agents", took)
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
			{PreConfig: func() { p.PVE.ResetStats(); started = time.Now() }, RefreshState: true, Check: asked},
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
