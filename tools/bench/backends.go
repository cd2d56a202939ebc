package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// backend is what the bench needs to know of an adapter: the account block
// it writes for an emulator, an instance's offer and image, the variables
// the provider resolves the account's secret references from, and the route
// of its create call.
type backend struct {
	account   func(e *emulator) string
	offer     string
	image     string
	env       []string
	create    string
	maxServed int // the most instances the emulated account can hold; 0: no limit
}

// The emulator's default credentials (tools/emulator's flags); they are the
// emulator's own, on loopback, and secret nowhere.
var backends = map[string]backend{
	"hcloud": {
		account: func(e *emulator) string {
			return fmt.Sprintf("hetzner_cloud = {\n    token    = \"env://HCLOUD_TOKEN\"\n    location = \"fsn1\"\n    endpoint = %q\n  }", e.lines["hcloud"][0])
		},
		offer: "cx22", image: "ubuntu-24.04", create: "POST /servers",
		env: []string{"HCLOUD_TOKEN=demo-token"},
	},
	"robot": {
		account: func(e *emulator) string {
			return fmt.Sprintf("hetzner_robot = {\n    user     = \"env://ROBOT_USER\"\n    password = \"env://ROBOT_PASSWORD\"\n    endpoint = %q\n  }", e.lines["robot"][0])
		},
		offer: "AX42", image: "Ubuntu-2404-noble-amd64-base", create: "POST /server/{id}",
		env: []string{"ROBOT_USER=demo-user", "ROBOT_PASSWORD=demo-password"},
		// The Robot servers' SSH farm lives on one loopback /24.
		maxServed: 254,
	},
	"proxmox": {
		// 64 MiB VMs, so that N=1,000 fits the emulated cluster's two
		// 64 GiB nodes; the bench measures the provider, not the guests.
		account: func(e *emulator) string {
			p := e.lines["proxmox"]
			return fmt.Sprintf("proxmox = {\n    endpoint        = %q\n    api_token       = \"env://PROXMOX_API_TOKEN\"\n    tls_fingerprint = %q\n"+
				"    flavors         = jsonencode({ small = { cores = 1, memory_mib = 64, disk_gib = 10 } })\n  }", p[0], p[1])
		},
		offer: "small", image: "ubuntu-24.04-cloud", create: "POST /nodes/{node}/qemu/{vmid}/clone",
		env: []string{"PROXMOX_API_TOKEN=root@pam!demo=demo-proxmox-secret"},
	},
}

// scenario is one measured run: an emulator started with emuArgs, n
// instances applied at parallelism with the API answering after
// applyLatency, then the plans. The apply's floor is Terraform's own time
// for a no-op apply of n resources plus waves of wave each.
type scenario struct {
	adapter      string
	title        string
	n            int
	parallelism  int
	emuArgs      []string
	applyLatency time.Duration
	waves        int
	wave         time.Duration
	target       string // which target the run measures, "" for a size run
}

// scenarios are an adapter's runs: one per size, with quick actions so the
// sizes take minutes, not hours, and the run its targets name, with
// realistic durations.
func (b *bench) scenarios(name string) []scenario {
	o := b.opts
	var out []scenario
	for _, n := range o.sizes {
		s := scenario{adapter: name, n: n, parallelism: o.parallelism, title: "N=" + strconv.Itoa(n)}
		switch name {
		case "hcloud":
			// Actions end at their first poll.
			s.emuArgs = []string{"-action-duration", "0"}
		case "robot":
			if n > backends[name].maxServed {
				progress("robot: N=%d skipped: the emulated account rents at most %d servers", n, backends[name].maxServed)
				continue
			}
			s.emuArgs = []string{"-robot-servers", strconv.Itoa(n)}
		case "proxmox":
			// Clones of one template run one at a time.
			clone := 20 * time.Millisecond
			s.emuArgs = []string{"-proxmox-clone-duration", clone.String()}
			s.waves, s.wave = n, clone
		}
		out = append(out, s)
	}
	switch name {
	case "hcloud":
		out = append(out, scenario{
			adapter: name, n: o.applyN, parallelism: o.parallelism, applyLatency: o.latency, target: "apply",
			title:   fmt.Sprintf("apply, %s actions", o.action),
			emuArgs: []string{"-action-duration", o.action.String()},
			waves:   (o.applyN + o.parallelism - 1) / o.parallelism, wave: o.action,
		})
	case "proxmox":
		out = append(out, scenario{
			adapter: name, n: o.clones, parallelism: o.parallelism, applyLatency: o.latency, target: "clones",
			title:   fmt.Sprintf("clones, %s each", o.clone),
			emuArgs: []string{"-proxmox-clone-duration", o.clone.String()},
			waves:   o.clones, wave: o.clone,
		})
	}
	return out
}

// config is the Terraform configuration of n instances on one account.
func config(s scenario, e *emulator) string {
	be := backends[s.adapter]
	var c strings.Builder
	fmt.Fprintf(&c, `terraform {
  required_providers {
    compute = { source = "seedcompute/compute" }
  }
}

provider "compute" {}

resource "compute_provider_account" "bench" {
  name = "bench-%s"
  %s
}

resource "compute_instance" "m" {
  count    = %d
  account  = compute_provider_account.bench.id
  name     = "bench-${count.index}"
  offer_id = %q
  image    = %q
}
`, s.adapter, be.account(e), s.n, be.offer, be.image)
	return c.String()
}

// noopConfig is n resources that cost Terraform its own work only.
func noopConfig(n int) string {
	return fmt.Sprintf("resource \"terraform_data\" \"m\" {\n  count = %d\n  input = \"bench-${count.index}\"\n}\n", n)
}
