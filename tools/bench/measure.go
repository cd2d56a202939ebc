package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

type bench struct {
	opts    options
	bins    binaries
	scratch string
	runs    int
}

// row is what one scenario measured.
type row struct {
	scenario
	apply, noop time.Duration
	// applyRequests are the apply's requests, creates its create calls.
	applyRequests, creates int
	// confirm is the first plan after the apply, which confirms the
	// creates' claims (one write per machine, DESIGN.md §3 rule 2); plan0
	// and planL the plans after it, at 0 latency and at opts.latency.
	confirm           int
	plan0, planL      int
	plan0Wall, planLW time.Duration
	peakRSS           int64
	lockTimeouts      int
	lockWaits         int
	// failed is why the run failed; its numbers are then partial.
	failed string
}

func (r row) floor() time.Duration { return r.noop + time.Duration(r.waves)*r.wave }

func (r row) beyondCreate() float64 {
	return float64(r.applyRequests-r.creates) / float64(r.n)
}

// measure runs one scenario: apply, a confirming plan, a plan at 0 and one
// at the configured latency, then the no-op apply of the same size for the
// floor. Everything it starts is stopped before it returns.
func (b *bench) measure(ctx context.Context, s scenario) (r row, err error) {
	r.scenario = s
	b.runs++
	dir := filepath.Join(b.scratch, fmt.Sprintf("%02d-%s-%d", b.runs, s.adapter, s.n))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return r, err
	}
	emu, err := startEmulator(ctx, b.bins.emulator, s.emuArgs...)
	if err != nil {
		return r, err
	}
	defer emu.stop()
	prov, err := startProvider(ctx, b.bins.provider, filepath.Join(dir, "provider.log"), b.opts.providerLog, backends[s.adapter].env)
	if err != nil {
		return r, err
	}
	defer func() {
		rss, stopErr := prov.stop()
		r.peakRSS = rss
		if err == nil {
			err = stopErr
		}
	}()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config(s, emu)), 0o600); err != nil {
		return r, err
	}
	env := b.tfEnv(dir, "TF_REATTACH_PROVIDERS="+prov.reattach)
	tf := func(args ...string) (time.Duration, error) {
		return terraform(ctx, b.opts.terraform, dir, env, append(args, "-input=false", "-no-color")...)
	}
	// count runs one command between a reset of the request counts and a
	// read of them, which it keeps beside the run's output as
	// NAME.stats.json (-keep) for a look at the routes.
	count := func(name string, run func() (time.Duration, error)) (time.Duration, stats, error) {
		if err := emu.resetStats(s.adapter); err != nil {
			return 0, nil, err
		}
		took, err := run()
		if err != nil {
			return took, nil, err
		}
		st, err := emu.stats(s.adapter)
		if err == nil {
			b, _ := json.MarshalIndent(st, "", "  ")
			err = os.WriteFile(filepath.Join(dir, name+".stats.json"), b, 0o600)
		}
		return took, st, err
	}
	apply := func() (time.Duration, error) {
		return tf("apply", "-auto-approve", "-parallelism="+strconv.Itoa(s.parallelism))
	}
	plan := func() (time.Duration, error) { return tf("plan", "-detailed-exitcode") }

	if err := emu.setLatency(s.adapter, s.applyLatency); err != nil {
		return r, err
	}
	took, st, err := count("apply", apply)
	if err != nil {
		return r, err
	}
	r.apply, r.applyRequests, r.creates = took, st.total(), st[backends[s.adapter].create]
	if s.adapter == "proxmox" {
		var c struct {
			LockWaits    int `json:"lock_waits"`
			LockTimeouts int `json:"lock_timeouts"`
		}
		if err := emu.call(http.MethodGet, "/_emulator/proxmox/counters", nil, &c); err != nil {
			return r, err
		}
		r.lockWaits, r.lockTimeouts = c.LockWaits, c.LockTimeouts
	}
	if err := emu.setLatency(s.adapter, 0); err != nil {
		return r, err
	}
	if _, st, err = count("plan-confirm", plan); err != nil {
		return r, err
	}
	r.confirm = st.total()
	if r.plan0Wall, st, err = count("plan-0ms", plan); err != nil {
		return r, err
	}
	r.plan0 = st.total()
	if err := emu.setLatency(s.adapter, b.opts.latency); err != nil {
		return r, err
	}
	if r.planLW, st, err = count("plan-latency", plan); err != nil {
		return r, err
	}
	r.planL = st.total()
	r.noop, err = b.noop(ctx, s)
	return r, err
}

// noop is the wall time of Terraform applying n terraform_data resources
// at the scenario's parallelism: what Terraform itself costs at that size.
func (b *bench) noop(ctx context.Context, s scenario) (time.Duration, error) {
	dir := filepath.Join(b.scratch, fmt.Sprintf("%02d-noop-%d", b.runs, s.n))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(noopConfig(s.n)), 0o600); err != nil {
		return 0, err
	}
	return terraform(ctx, b.opts.terraform, dir, b.tfEnv(dir), "apply", "-auto-approve", "-input=false", "-no-color",
		"-parallelism="+strconv.Itoa(s.parallelism))
}

// tfEnv is a throw-away CLI configuration (as scripts/tfenv.sh makes) and
// nothing that could reach a registry or the checkpoint service: the
// provider comes from TF_REATTACH_PROVIDERS, terraform_data is built in.
func (b *bench) tfEnv(dir string, extra ...string) []string {
	rc := filepath.Join(dir, "terraformrc")
	if _, err := os.Stat(rc); err != nil {
		_ = os.WriteFile(rc, nil, 0o600)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0",
		"TF_PLUGIN_CACHE_DIR=", "TF_LOG=", "TF_WORKSPACE=", "TF_DATA_DIR=" + filepath.Join(dir, ".terraform")}
	return append(env, extra...)
}

func mib(b int64) string { return strconv.FormatInt(b/(1<<20), 10) + " MiB" }

func secs(d time.Duration) string {
	return strings.TrimSuffix(strconv.FormatFloat(d.Seconds(), 'f', 1, 64), ".0") + "s"
}
