package instance_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// TestInstancePlanAgainstASilentEndpoint: when the API takes every request
// and never answers, a plan fails within a few request bounds, saying that
// the endpoint did not answer, instead of retrying until the read timeout.
// The account's refresh records the outage; the instances' listing is sent
// twice and not followed by direct reads; nothing leaves the state.
func TestInstancePlanAgainstASilentEndpoint(t *testing.T) {
	t.Parallel()
	const bound = 250 * time.Millisecond
	e := acctest.NewEmulator(t)
	// Read timeouts well above the few bounds the plan may take, and below
	// what a retried silence would cost; a short delete timeout, should the
	// test fail with the silence still scripted.
	cfg := strings.Replace(instance(e, "hush-1", `timeouts {
    read   = "30s"
    delete = "10s"
  }`), "  hetzner_cloud = {", "  timeouts {\n    read = \"30s\"\n  }\n  hetzner_cloud = {", 1)
	// The short bound is for the step that meets the silence only: the
	// create before it and the plan and destroy after it run with the
	// production bound, so a stall on a busy machine does not fail them (a
	// create is a write, and is never sent twice).
	var requestBound atomic.Int64
	var began time.Time
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.FactoriesWithRequestTimeout(func() time.Duration { return time.Duration(requestBound.Load()) }),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					e.ResetStats()
					requestBound.Store(int64(bound))
					mustRule(t, e, faults.Rule{Path: "*", DelayIfConnected: faults.Duration(time.Hour)})
					began = time.Now()
				},
				Config:      cfg,
				ExpectError: acctest.Match(`Unable to read instance.*never answered it.*did not answer within 250ms, nor when the request was sent once more`),
			},
			{
				PreConfig: func() {
					took := time.Since(began)
					st := e.Stats()
					e.Faults().Clear()
					requestBound.Store(0)
					// Two bounds for the health check, two for the listing;
					// the rest is terraform itself. The error named the
					// bound, and each request was sent twice and no more:
					// that is the proof, not how long the plan took, which
					// says how busy the machine was.
					if st["GET /locations"] != 2 || st["GET /servers"] != 2 || st["GET /servers/{id}"] != 0 {
						t.Errorf("requests %v, want the health check and the listing sent twice each, no direct read", st)
					}
					t.Logf("plan against a silent endpoint with a %s bound: %s, requests %v", bound, took.Round(time.Millisecond), st)
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
		},
	})
}
