package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// printTable prints one line per run.
func printTable(w io.Writer, o options, rows []row) {
	lat := o.latency.String()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "adapter\trun\tN\tplan req\treq/machine beyond create\tplan 0ms\tplan %s\tratio\tplan floor\tapply\tfloor\tapply/floor\tpeak RSS\t\n", lat)
	for _, r := range rows {
		if r.failed != "" {
			fmt.Fprintf(tw, "%s\t%s\t%d\tfailed\t\t\t\t\t\t\t\t\t\t\n", r.adapter, r.title, r.n)
			continue
		}
		floorPlan := "–"
		if r.floorPlan > 0 {
			floorPlan = secs(r.floorPlan)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.2f\t%s\t%s\t%.2f\t%s\t%s\t%s\t%.2f\t%s\t\n",
			r.adapter, r.title, r.n, r.planL, r.beyondCreate(), secs(r.plan0Wall), secs(r.planLW),
			r.planLW.Seconds()/r.plan0Wall.Seconds(), floorPlan, secs(r.apply), secs(r.floor()),
			r.apply.Seconds()/r.floor().Seconds(), mib(r.peakRSS))
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\nplan req: API requests of a plan (its refresh) at %s, after the first plan following the apply, which also confirms\n"+
		"each new machine's claim (one write each). plan times: the median of %d plans. plan floor: the same plan through a\n"+
		"provider with these schemas whose reads ask nothing and that checks nothing at plan (tools/bench/floorprovider):\n"+
		"Terraform's and the plugin framework's own time for N instances. req/machine: the apply's requests other than its\n"+
		"creates, over N. apply at -parallelism=%d; the size runs' apply has no latency and quick actions (Hetzner Cloud: each\n"+
		"ends at its first poll; Proxmox: 20ms clones, which run one at a time per template); floor: Terraform's own apply of N\n"+
		"terraform_data resources at the same parallelism, plus waves of the action (Proxmox: one clone after another). peak\n"+
		"RSS: the provider process's maximum resident memory over apply and plans.\n", lat, o.plans, o.parallelism)
}

// printTargets says which target each run meets.
func printTargets(w io.Writer, o options, rows []row) {
	fmt.Fprintln(w, "\ntargets:")
	check := func(ok bool, format string, args ...any) {
		mark := "met    "
		if !ok {
			mark = "MISSED "
		}
		fmt.Fprintf(w, "  %s%s\n", mark, fmt.Sprintf(format, args...))
	}
	var pve10, pve100 *row
	for i := range rows {
		r := rows[i]
		if r.failed != "" {
			check(false, "%s, %s: the run failed: %s", r.adapter, r.title, firstLine(r.failed))
			continue
		}
		switch {
		case r.adapter == "hcloud" && r.target == "apply":
			check(r.apply.Seconds() <= 1.15*r.floor().Seconds(), "Hetzner Cloud apply of %d at -parallelism=%d, %s actions: %s = %.2f × the floor %s (≤ 1.15)",
				r.n, r.parallelism, r.wave, secs(r.apply), r.apply.Seconds()/r.floor().Seconds(), secs(r.floor()))
			check(r.beyondCreate() <= 0.5, "Hetzner Cloud apply of %d: %.2f requests per server beyond the POST (≤ 0.5)", r.n, r.beyondCreate())
		case r.adapter == "hcloud" && r.target == "":
			limit := int(math.Ceil(float64(r.n)/50)) + 5
			check(r.planL <= limit && r.plan0 <= limit, "Hetzner Cloud plan of %d: %d requests (≤ %d)", r.n, r.planL, limit)
			if r.n == 1000 {
				ratio := r.planLW.Seconds() / r.plan0Wall.Seconds()
				check(ratio <= 1.3, "Hetzner Cloud plan of 1000: %s at %s ÷ %s at 0ms = %.2f (≤ 1.3)", secs(r.planLW), o.latency, secs(r.plan0Wall), ratio)
			}
		case r.adapter == "proxmox" && r.target == "clones":
			serial := float64(r.n) * r.wave.Seconds()
			check(r.apply.Seconds() <= 1.15*serial, "Proxmox %d clones of one template at -parallelism=%d: %s = %.2f × (%d × %s) (≤ 1.15)",
				r.n, r.parallelism, secs(r.apply), r.apply.Seconds()/serial, r.n, r.wave)
			check(r.lockTimeouts == 0, "Proxmox clones: %d lock errors, %d waits on a lock (0 errors)", r.lockTimeouts, r.lockWaits)
		case r.adapter == "proxmox" && r.n == 10:
			pve10 = &rows[i]
		case r.adapter == "proxmox" && r.n == 100:
			pve100 = &rows[i]
		}
		if r.n >= 1000 {
			check(r.peakRSS < 150<<20, "%s, %s: provider peak memory %s (< 150 MiB)", r.adapter, r.title, mib(r.peakRSS))
		}
	}
	if pve10 != nil && pve100 != nil {
		ratio := pve100.planLW.Seconds() / pve10.planLW.Seconds()
		check(ratio <= 2, "Proxmox refresh (plan at %s) of 100 running VMs: %.2fs = %.2f × a refresh of 10 (%.2fs) (≤ 2)%s",
			o.latency, pve100.planLW.Seconds(), ratio, pve10.planLW.Seconds(), floorRatio(pve10, pve100))
	}
}

// floorRatio is what the refresh target line says of the plan floors:
// the floor of 100 over the floor of 10, which the provider cannot beat.
func floorRatio(r10, r100 *row) string {
	if r10.floorPlan <= 0 || r100.floorPlan <= 0 {
		return ""
	}
	return fmt.Sprintf("; the plan floor of 100 is %.2f × that of 10 (%.2fs, %.2fs)",
		r100.floorPlan.Seconds()/r10.floorPlan.Seconds(), r100.floorPlan.Seconds(), r10.floorPlan.Seconds())
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
