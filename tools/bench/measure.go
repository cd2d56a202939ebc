package main

import (
	"context"
	"fmt"
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
	// creates' claims (one write per machine: rule 2, adoption and holding,
	// of internal/adapter's package documentation); plan0
	// and planL the plans after it, at 0 latency and at opts.latency.
	confirm           int
	plan0, planL      int
	plan0Wall, planLW time.Duration
	// floorPlan is the plan's wall time through the floor provider, which
	// asks no API (tools/bench/floorprovider): what Terraform and the
	// plugin framework alone spend on n instances. Size runs only.
	floorPlan    time.Duration
	peakRSS      int64
	lockTimeouts int
	lockWaits    int
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
	t, err := b.start(ctx, s)
	if err != nil {
		return r, err
	}
	defer func() {
		rss, stopErr := t.stop()
		r.peakRSS = rss
		if err == nil {
			err = stopErr
		}
	}()
	if err := t.writeConfig(); err != nil {
		return r, err
	}
	if err := t.measureApply(&r); err != nil {
		return r, err
	}
	if err := t.measurePlans(&r); err != nil {
		return r, err
	}
	if s.target == "" {
		if r.floorPlan, err = t.floorPlan(); err != nil {
			return r, err
		}
	}
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
