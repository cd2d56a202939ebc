package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// trial is one scenario's run: its directory, the emulator and the
// provider it started, and Terraform's environment, which reattaches to
// that provider.
type trial struct {
	ctx  context.Context
	b    *bench
	s    scenario
	dir  string
	emu  *emulator
	prov *provider
	env  []string
}

// start makes the scenario's directory and starts its emulator and the
// provider; when the provider does not start, the emulator is stopped.
func (b *bench) start(ctx context.Context, s scenario) (*trial, error) {
	b.runs++
	t := &trial{ctx: ctx, b: b, s: s, dir: filepath.Join(b.scratch, fmt.Sprintf("%02d-%s-%d", b.runs, s.adapter, s.n))}
	if err := os.MkdirAll(t.dir, 0o700); err != nil {
		return nil, err
	}
	emu, err := startEmulator(ctx, b.bins.emulator, s.emuArgs...)
	if err != nil {
		return nil, err
	}
	prov, err := startProvider(ctx, b.bins.provider, filepath.Join(t.dir, "provider.log"), b.opts.providerLog, backends[s.adapter].env)
	if err != nil {
		emu.stop()
		return nil, err
	}
	t.emu, t.prov = emu, prov
	t.env = b.tfEnv(t.dir, "TF_REATTACH_PROVIDERS="+prov.reattach)
	return t, nil
}

// stop stops the provider, then the emulator, and returns the provider's
// peak RSS.
func (t *trial) stop() (int64, error) {
	rss, err := t.prov.stop()
	t.emu.stop()
	return rss, err
}

// writeConfig writes the scenario's configuration against its emulator.
func (t *trial) writeConfig() error {
	return os.WriteFile(filepath.Join(t.dir, "main.tf"), []byte(config(t.s, t.emu)), 0o600)
}

// measureApply applies the configuration at the scenario's apply latency:
// its wall time, its requests and creates, and on Proxmox the lock
// counters.
func (t *trial) measureApply(r *row) error {
	if err := t.emu.setLatency(t.s.adapter, t.s.applyLatency); err != nil {
		return err
	}
	took, st, err := t.count("apply", t.apply)
	if err != nil {
		return err
	}
	r.apply, r.applyRequests, r.creates = took, st.total(), st[backends[t.s.adapter].create]
	if t.s.adapter == "proxmox" {
		return t.lockCounters(r)
	}
	return nil
}

// lockCounters are the Proxmox emulator's lock waits and timeouts.
func (t *trial) lockCounters(r *row) error {
	var c struct {
		LockWaits    int `json:"lock_waits"`
		LockTimeouts int `json:"lock_timeouts"`
	}
	if err := t.emu.call(http.MethodGet, "/_emulator/proxmox/counters", nil, &c); err != nil {
		return err
	}
	r.lockWaits, r.lockTimeouts = c.LockWaits, c.LockTimeouts
	return nil
}

// measurePlans runs the plan that confirms the creates' claims, then a
// plan at 0 latency and one at the configured latency.
func (t *trial) measurePlans(r *row) error {
	if err := t.emu.setLatency(t.s.adapter, 0); err != nil {
		return err
	}
	_, st, err := t.count("plan-confirm", t.plan)
	if err != nil {
		return err
	}
	r.confirm = st.total()
	if r.plan0Wall, r.plan0, err = t.countedPlans("plan-0ms"); err != nil {
		return err
	}
	if err := t.emu.setLatency(t.s.adapter, t.b.opts.latency); err != nil {
		return err
	}
	r.planLW, r.planL, err = t.countedPlans("plan-latency")
	return err
}

// countedPlans runs the plan opts.plans times: the first between the
// request counts' reset and read (the requests of one plan), the others
// only timed. It returns the median wall time and the first's requests.
func (t *trial) countedPlans(name string) (time.Duration, int, error) {
	first, st, err := t.count(name, t.plan)
	if err != nil {
		return 0, 0, err
	}
	median, err := t.plans([]time.Duration{first}, t.b.opts.plans-1)
	return median, st.total(), err
}

// plans runs the plan n more times and returns the median wall time of
// those and the took already measured.
func (t *trial) plans(took []time.Duration, n int) (time.Duration, error) {
	for range n {
		d, err := t.plan()
		if err != nil {
			return 0, err
		}
		took = append(took, d)
	}
	slices.Sort(took)
	return took[len(took)/2], nil
}

// floorPlan is the median wall time of the same plan through the floor
// provider, reattached in place of the provider, over the state the
// provider applied: Terraform's and the framework's own time for these
// resources, with no request made.
func (t *trial) floorPlan() (time.Duration, error) {
	floor, err := startProvider(t.ctx, t.b.bins.floor, filepath.Join(t.dir, "floor-provider.log"), t.b.opts.providerLog, backends[t.s.adapter].env)
	if err != nil {
		return 0, err
	}
	defer func() { _, _ = floor.stop() }()
	providerEnv := t.env
	t.env = t.b.tfEnv(t.dir, "TF_REATTACH_PROVIDERS="+floor.reattach)
	defer func() { t.env = providerEnv }()
	// One plan first, untimed: the provider's was warmed by the apply.
	if _, err := t.plan(); err != nil {
		return 0, err
	}
	return t.plans(nil, t.b.opts.plans)
}

// count runs one command between a reset of the request counts and a
// read of them, which it keeps beside the run's output as
// NAME.stats.json (-keep) for a look at the routes.
func (t *trial) count(name string, run func() (time.Duration, error)) (time.Duration, stats, error) {
	if err := t.emu.resetStats(t.s.adapter); err != nil {
		return 0, nil, err
	}
	took, err := run()
	if err != nil {
		return took, nil, err
	}
	st, err := t.emu.stats(t.s.adapter)
	if err == nil {
		b, _ := json.MarshalIndent(st, "", "  ")
		err = os.WriteFile(filepath.Join(t.dir, name+".stats.json"), b, 0o600)
	}
	return took, st, err
}

func (t *trial) apply() (time.Duration, error) {
	return t.tf("apply", "-auto-approve", "-parallelism="+strconv.Itoa(t.s.parallelism))
}

func (t *trial) plan() (time.Duration, error) { return t.tf("plan", "-detailed-exitcode") }

// tf runs terraform in the trial's directory, reattached to its provider.
func (t *trial) tf(args ...string) (time.Duration, error) {
	return terraform(t.ctx, t.b.opts.terraform, t.dir, t.env, append(args, "-input=false", "-no-color")...)
}
