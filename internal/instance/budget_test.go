package instance_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// budgetConfig is n instances whose name suffix, labels and power come from
// variables, so one working directory walks through every kind of change.
func budgetConfig(e *acctest.Emulator) string {
	return e.Account() + `
variable "n" {
  type    = number
  default = 1
}
variable "suffix" {
  type    = string
  default = "a"
}
variable "tier" {
  type    = string
  default = "one"
}
variable "power" {
  type    = string
  default = "on"
}

resource "compute_instance" "web" {
  count    = var.n
  account  = compute_provider_account.test.id
  name     = "web-${count.index}-${var.suffix}"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  power    = var.power
  labels   = { tier = var.tier }
}
`
}

// applyCounted plans with vars into a saved plan and applies it, counting
// only the apply's requests: a saved plan is applied without a refresh, so
// what the emulator counts is what the changes themselves cost.
func applyCounted(t *testing.T, e *acctest.Emulator, cli *acctest.CLI, vars ...string) map[string]int {
	t.Helper()
	args := []string{"plan", "-out=budget.tfplan"}
	for _, v := range vars {
		args = append(args, "-var", v)
	}
	cli.MustRun(args...)
	e.ResetStats()
	cli.MustRun("apply", "budget.tfplan")
	return e.Stats()
}

// beyond sums every request but those of the routes named.
func beyond(stats map[string]int, routes ...string) int {
	n := 0
	for route, c := range stats {
		if !slices.Contains(routes, route) {
			n += c
		}
	}
	return n
}

func show(stats map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(stats)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, stats[k]))
	}
	return strings.Join(parts, " ")
}

// catalog is what a plan's check of offer, image and location reads, once
// per provider process; the apply of a saved plan plans once more.
var catalog = []string{"GET /images", "GET /locations", "GET /server_types"}

// TestRequestBudgetCLI holds what each kind of apply costs the API, counted
// by the emulator (whose actions take two reads to finish): a create beyond
// its POST and the catalog (the look-up listing and two rounds of the wait),
// a rename and a relabel (one read, one write), a power change (the read of
// the machine, the adapter's own, the action's two polls, a round of the
// wait; off is a graceful shutdown the guest honours, so no poweroff follows; powering on a server this process did not stop also asks whether a
// create is still starting it), and 49 creates at once (Terraform's default
// parallelism of 10) at no more than two requests each beyond their POSTs,
// everything included.
func TestRequestBudgetCLI(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, budgetConfig(e))
	cli.MustRun("apply", "-auto-approve", "-target=compute_provider_account.test")

	type step struct {
		name   string
		vars   []string
		write  string
		budget int // requests beyond the write and the catalog
	}
	for _, s := range []step{
		{"create", nil, "POST /servers", 3},
		{"rename", []string{"suffix=b"}, "PUT /servers/{id}", 1},
		{"relabel", []string{"suffix=b", "tier=two"}, "PUT /servers/{id}", 1},
		{"power off", []string{"suffix=b", "tier=two", "power=off"}, "POST /servers/{id}/actions/shutdown", 5},
		{"power on", []string{"suffix=b", "tier=two", "power=on"}, "POST /servers/{id}/actions/poweron", 6},
	} {
		stats := applyCounted(t, e, cli, s.vars...)
		extra := beyond(stats, append([]string{s.write}, catalog...)...)
		t.Logf("%s: %d request(s) beyond its write and the catalog: %s", s.name, extra, show(stats))
		if stats[s.write] != 1 || extra > s.budget {
			t.Errorf("%s cost %d %s and %d other request(s) beyond the catalog, want 1 and at most %d: %s",
				s.name, stats[s.write], s.write, extra, s.budget, show(stats))
		}
	}

	const n = 50
	stats := applyCounted(t, e, cli, "suffix=b", "tier=two", fmt.Sprintf("n=%d", n))
	creates := stats["POST /servers"]
	extra := beyond(stats, "POST /servers")
	t.Logf("%d creates at once: %.2f request(s) each beyond its POST, catalog included: %s", creates, float64(extra)/float64(creates), show(stats))
	if creates != n-1 || extra > 2*creates {
		t.Errorf("%d creates cost %d POSTs and %d other requests, want %d and at most %d: %s", n-1, creates, extra, n-1, 2*creates, show(stats))
	}
	cli.MustRun("destroy", "-auto-approve", "-var", fmt.Sprintf("n=%d", n), "-var", "suffix=b")
}
