// Command bench measures the provider the way a user meets it: it builds the
// provider and the standalone emulator (tools/emulator), and for each adapter
// and each size runs real `terraform apply` and `terraform plan` against the
// emulator on loopback, with the provider served in debug mode (Terraform
// reattaches to it), and prints one table: requests per plan, requests per
// created machine beyond its create call, plan wall time at 0 ms and at the
// given API latency, apply wall time against its floor, and the provider
// process's peak memory.
//
//	go run ./tools/bench [-n "10 100 1000"] [-adapters "hcloud robot proxmox"] [-keep]
//
// Numbers are reported, never asserted: wall times depend on the machine.
// Every process it starts listens on loopback only, everything it writes
// lives in one scratch directory, and both are gone when it returns. It
// imports no package of the provider: it drives the built binaries.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type options struct {
	sizes       []int
	adapters    []string
	terraform   string
	parallelism int
	latency     time.Duration
	// The runs that hold the targets: Hetzner Cloud's apply of applyN
	// servers whose actions take action; Proxmox's clones of one template,
	// each clone task taking clone.
	applyN int
	action time.Duration
	clones int
	clone  time.Duration
	keep   bool
	// plans is how often each timed plan runs; its wall time is the
	// median, since one run of a sub-second plan says little on a busy
	// machine.
	plans int
	// providerLog is the provider's log level (TF_LOG_PROVIDER), "" for none.
	providerLog string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (options, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var o options
	var sizes, adapters string
	fs.StringVar(&sizes, "n", "10 100 1000", "the `sizes` (numbers of instances) to measure, space separated")
	fs.StringVar(&adapters, "adapters", "hcloud robot proxmox", "the `adapters` to measure, space separated")
	fs.StringVar(&o.terraform, "terraform", "terraform", "the Terraform (or OpenTofu) `binary` to drive")
	fs.IntVar(&o.parallelism, "parallelism", 20, "terraform apply -parallelism")
	fs.DurationVar(&o.latency, "latency", 30*time.Millisecond, "the API latency of the slow plan, and of every apply")
	fs.IntVar(&o.applyN, "hcloud-apply", 50, "how many Hetzner Cloud servers the timed apply creates")
	fs.DurationVar(&o.action, "action-duration", 5*time.Second, "how long each Hetzner Cloud server action runs in the timed apply")
	fs.IntVar(&o.clones, "proxmox-clones", 20, "how many Proxmox VMs the timed apply clones from one template")
	fs.DurationVar(&o.clone, "proxmox-clone-duration", 2*time.Second, "how long each Proxmox clone task runs in the timed apply")
	fs.StringVar(&o.providerLog, "provider-log", "", "the provider's log `level` (DEBUG shows each API request), written to provider.log in the scratch directory; slows the provider")
	fs.IntVar(&o.plans, "plans", 3, "how often each timed plan runs (the median is shown)")
	fs.BoolVar(&o.keep, "keep", false, "keep the scratch directory (configurations, states, logs) and print where it is")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	for _, f := range strings.Fields(sizes) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return o, fmt.Errorf("-n %q: want whole numbers of instances, such as \"10 100\"", sizes)
		}
		o.sizes = append(o.sizes, n)
	}
	for _, a := range strings.Fields(adapters) {
		if _, ok := backends[a]; !ok {
			return o, fmt.Errorf("-adapters %q: %q is none of hcloud, robot, proxmox", adapters, a)
		}
		o.adapters = append(o.adapters, a)
	}
	if o.parallelism < 1 || o.applyN < 1 || o.clones < 1 || o.plans < 1 || o.latency < 0 || o.action < 0 || o.clone <= 0 {
		return o, errors.New("-parallelism, -hcloud-apply, -proxmox-clones and -plans want 1 or more, the durations 0 or more (a clone more than 0)")
	}
	return o, nil
}

func run(ctx context.Context, args []string) error {
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "compute-bench.")
	if err != nil {
		return err
	}
	if o.keep {
		defer fmt.Fprintln(os.Stderr, "bench: scratch directory kept at", scratch)
	} else {
		defer func() { _ = os.RemoveAll(scratch) }()
	}
	bins, err := build(ctx, scratch)
	if err != nil {
		return err
	}
	b := &bench{opts: o, bins: bins, scratch: scratch}
	started := time.Now()
	var rows []row
	failed := false
	for _, name := range o.adapters {
		for _, s := range b.scenarios(name) {
			progress("%s: %s", name, s.title)
			r, err := b.measure(ctx, s)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err != nil {
				// The other runs still say something; the table names
				// the failure.
				r.failed = err.Error()
				progress("%s: %s failed: %v", name, s.title, err)
				failed = true
			}
			rows = append(rows, r)
		}
	}
	printTable(os.Stdout, o, rows)
	printTargets(os.Stdout, o, rows)
	fmt.Printf("\nmeasured in %s\n", time.Since(started).Round(time.Second))
	if failed {
		return errors.New("a run failed; the table and the output above say which")
	}
	return nil
}

// progress says on stderr what runs now, so a long run shows where it is
// while stdout keeps only the table.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: %s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}
