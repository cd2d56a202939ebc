package instance_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestInstanceRulesAtPlan: a name or a label the backend would refuse is an
// error at plan time on its attribute, naming the value and the adapter's
// rule, for a new machine and for a rename.
func TestInstanceRulesAtPlan(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cases := map[string]struct {
		name, extra, want string
	}{
		"name":           {"web_1", "", `name = "web_1" is not a machine name the hcloud adapter accepts: a name must be a valid hostname \(RFC 1123\)`},
		"label key":      {"web-1", `labels = { "-role" = "web" }`, `labels key "-role" is not a label key the hcloud adapter accepts: a key must be a Hetzner Cloud label key`},
		"reserved key":   {"web-1", `labels = { "compute.seedcompute.io/managed" = "true" }`, `labels key "compute.seedcompute.io/managed" is not a label key .*are reserved`},
		"label value":    {"web-1", `labels = { role = "web server" }`, `labels\["role"\] = "web server" is not a label value the hcloud adapter accepts: a value must be a Hetzner Cloud label value`},
		"long value":     {"web-1", `labels = { role = "` + strings.Repeat("a", 64) + `" }`, `labels\["role"\] = "a{64}" is not a label value`},
		"unchecked name": {strings.Repeat("a", 63) + ".example.com", `labels = { "example.com/role" = "" }`, ``},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			step := resource.TestStep{Config: instance(e, c.name, c.extra), PlanOnly: true, ExpectNonEmptyPlan: true}
			if c.want != "" {
				step.ExpectError = acctest.Match(c.want)
			}
			resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.Factories(), Steps: []resource.TestStep{step}})
		})
	}
	if got := e.Stats()["POST /servers"]; got != 0 {
		t.Errorf("plans sent %d creates", got)
	}
}

// TestInstanceRenameRuleAtPlan: a rename to a name the backend refuses
// fails the plan, and nothing is sent.
func TestInstanceRenameRuleAtPlan(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	var updates int
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: instance(e, "web-1")},
			{
				PreConfig:   func() { updates = e.Stats()["PUT /servers/{id}"] },
				Config:      instance(e, "web 1"),
				ExpectError: acctest.Match(`Invalid machine name.*name = "web 1" is not a machine name the hcloud adapter accepts`),
			},
			{
				PreConfig: func() {
					if n := e.Stats()["PUT /servers/{id}"] - updates; n != 0 {
						t.Errorf("the refused rename sent %d updates", n)
					}
					if s, _ := e.ServerNamed("web-1"); s.Name != "web-1" {
						t.Errorf("the server was renamed to %q", s.Name)
					}
				},
				Config: instance(e, "web-1"),
			},
		},
	})
}
