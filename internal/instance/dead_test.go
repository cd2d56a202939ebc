package instance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestPlanAgainstADeadAPI: a configuration applied on Hetzner Cloud (account,
// compute_offers, instances taking their offer from it) and on Proxmox VE
// (account, compute_offers, an instance) is planned after both APIs went
// down (their ports closed). The plan fails, each error naming its
// endpoint and saying the state is kept; the state file is untouched; and
// each account's endpoint is tried a bounded number of times: seven
// attempts by the first read that meets the outage (the account's refresh,
// 30s of quick retries on the provider's clock) and one by every read after
// it, instead of each read retrying until its read timeout.
func TestPlanAgainstADeadAPI(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	p := acctest.NewProxmox(t)
	config := p.Provider() + e.AccountNamed("cloud", "env://"+acctest.HetznerCloudTokenEnv) + `
data "compute_offers" "cloud" {
  accounts = [compute_provider_account.cloud.id]
  min_vcpu = 2
}

resource "compute_instance" "web" {
  count    = 2
  account  = compute_provider_account.cloud.id
  name     = "dead-web-${count.index}"
  offer_id = [for o in data.compute_offers.cloud.offers : o if o.available][0].id
  image    = "ubuntu-24.04"
}
` + p.AccountOnly() + `
data "compute_offers" "pve" {
  accounts = [compute_provider_account.pve.id]
}
` + p.Instance("dead-vm")
	cli := acctest.NewCLI(t, config)
	cli.MustRun("apply", "-auto-approve")
	applied := cli.Read("terraform.tfstate")
	if !strings.Contains(applied, `"dead-web-1"`) || !strings.Contains(applied, `"dead-vm"`) {
		t.Fatalf("the apply recorded no machines, so the plan below would prove nothing:\n%s", applied)
	}

	e.Stop()
	p.Stop()
	logPath := filepath.Join(t.TempDir(), "terraform.log")
	cli.Setenv("TF_LOG_PROVIDER", "DEBUG")
	cli.Setenv("TF_LOG_PATH", logPath)
	out, err := cli.Run("plan")
	if err == nil {
		t.Fatalf("the plan against dead APIs succeeded:\n%s", out)
	}
	text := flat(out)
	for _, want := range []struct{ heading, endpoint string }{
		{"Error: Unable to list offers", e.Endpoint},
		{"Error: Unable to read instance", p.Endpoint},
	} {
		d := flat(acctest.Diagnostic(out, want.heading))
		for _, says := range []string{"The account's endpoint " + want.endpoint + " could not be reached (connection refused)",
			"the state is kept as it was", "set timeouts.unreachable to retry for longer"} {
			if !strings.Contains(d, says) {
				t.Errorf("%s does not say %q:\n%s", want.heading, says, text)
			}
		}
	}
	if strings.Contains(text, "retried for") || strings.Contains(text, "until the timeout or cancellation came") {
		t.Errorf("a read retried the dead endpoint until its read timeout:\n%s", text)
	}
	if now := cli.Read("terraform.tfstate"); now != applied {
		t.Errorf("the failed plan changed the state file:\nbefore: %s\nafter: %s", applied, now)
	}

	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	// Each request attempt is one DEBUG line of its adapter's log.
	for module, reads := range map[string]int{
		// The account's refresh, then compute_offers; the instances wait
		// for compute_offers, which failed.
		"compute.hcloud": 2,
		// The account's refresh, then compute_offers and the instance.
		"compute.proxmox": 3,
	} {
		n := linesWith(string(log), "request: ", "@module="+module, `error="connection refused"`)
		if n == 0 {
			t.Errorf("the log holds no refused %s request, so the count proves nothing", module)
		}
		if limit := 7 + reads - 1; n > limit {
			t.Errorf("%d refused %s requests, want at most %d: 7 by the read that met the outage, 1 by each of the %d after it",
				n, module, limit, reads-1)
		}
		t.Logf("%s: %d refused requests", module, n)
	}
}
