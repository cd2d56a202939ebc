package acctest

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Query runs `terraform query -generate-config-out=fleet.tf` over list,
// the list blocks written to fleet.tfquery.hcl, and returns the query's
// output and the generated file; the test fails when the query does.
// Terraform 1.14 and later (Require(t, Query)).
func (c *CLI) Query(list string) (out, generated string) {
	c.t.Helper()
	c.Write("fleet.tfquery.hcl", list)
	out = c.MustRun("query", "-generate-config-out=fleet.tf")
	// Shown under go test -v: what a user running the query sees.
	c.t.Logf("terraform query -generate-config-out=fleet.tf\n%s\nfleet.tf:\n%s", out, c.Read("fleet.tf"))
	return out, c.Read("fleet.tf")
}

// AdoptByQuery adopts machines the way the fleet guide does: the query
// over list writes fleet.tf; when fill names attributes (attribute →
// value, an HCL expression) the backend does not report, the plan of the
// generated configuration must fail naming each, and each null is filled
// in; the plan then imports n machines and changes each (the mark) and
// nothing else, the apply makes it so, and the next plan is empty. It
// returns the query's output and the file as generated, for the test's
// own checks of which machines are in it.
func (c *CLI) AdoptByQuery(list string, fill map[string]string, n int) (out, generated string) {
	c.t.Helper()
	out, generated = c.Query(list)
	filled := generated
	if len(fill) > 0 {
		plan, err := c.Run("plan", "-input=false")
		for _, attr := range slices.Sorted(maps.Keys(fill)) {
			if err == nil || !Match(`Missing Configuration for Required Attribute .* the `+attr+` attribute`).MatchString(plan) {
				c.t.Errorf("the plan of the generated configuration: %v, want it to ask for %s:\n%s", err, attr, plan)
			}
			filled = c.FillNull(filled, attr, fill[attr])
		}
		c.Write("fleet.tf", filled)
	}
	plan := c.MustRun("plan", "-input=false")
	c.t.Logf("terraform plan (the generated configuration)\n%s", plan)
	if want := fmt.Sprintf("%d to import, 0 to add, %d to change, 0 to destroy", n, n); !strings.Contains(plan, want) {
		c.t.Errorf("the plan should import the %d machines and only write their marks (%s):\n%s", n, want, plan)
	}
	c.MustRun("apply", "-auto-approve", "-input=false")
	c.EmptyPlan("after the apply of the generated configuration")
	return out, generated
}

// FillNull writes value into every line of generated that sets attr to
// null, as a user fills in what the backend did not report; the test fails
// when there is no such line.
func (c *CLI) FillNull(generated, attr, value string) string {
	c.t.Helper()
	re := regexp.MustCompile(`(?m)^(\s+)` + regexp.QuoteMeta(attr) + `\s+= null.*$`)
	if !re.MatchString(generated) {
		c.t.Fatalf("the generated configuration sets no %s to null:\n%s", attr, generated)
	}
	return re.ReplaceAllString(generated, "${1}"+attr+" = "+value)
}

// EmptyPlan fails the test unless a plan finds nothing to change.
func (c *CLI) EmptyPlan(when string) {
	c.t.Helper()
	out, err := c.Run("plan", "-detailed-exitcode", "-input=false")
	if err != nil {
		c.t.Fatalf("the plan %s is not empty (%v):\n%s", when, err, out)
	}
	c.t.Logf("terraform plan -detailed-exitcode %s: exit 0\n%s", when, out)
}

// ListResult is one result of a list resource, as the protocol carries
// it: its display name, identity and resource (string attributes only).
type ListResult struct {
	DisplayName string
	Identity    map[string]string
	Resource    map[string]string
	Diagnostics []*tfprotov6.Diagnostic
}

// listConfig is config as the configuration of resource's list resource.
func (p *Proto) listConfig(resource string, config map[string]tftypes.Value) tfprotov6.DynamicValue {
	p.t.Helper()
	ls, ok := p.schemas.ListResourceSchemas[resource]
	if !ok {
		p.t.Fatalf("no list resource %s", resource)
	}
	typ, ok := ls.ValueType().(tftypes.Object)
	if !ok {
		p.t.Fatalf("list resource %s's schema is a %T, not an object", resource, ls.ValueType())
	}
	return p.dynamic(typ, NullsBut(typ, config))
}

// List runs resource's list resource with config (attribute values, the
// others null), as `terraform query` does, with the resource in each
// result when include; the test fails when the call does.
func (p *Proto) List(resource string, config map[string]tftypes.Value, include bool) []ListResult {
	p.t.Helper()
	s, ok := p.srv.(tfprotov6.ListResourceServer)
	if !ok {
		p.t.Fatalf("the provider server (%T) has no list resources", p.srv)
	}
	c := p.listConfig(resource, config)
	stream, err := s.ListResource(context.Background(), &tfprotov6.ListResourceRequest{
		TypeName: resource, Config: &c, IncludeResource: include, Limit: 100,
	})
	if err != nil {
		p.t.Fatalf("list %s: %v", resource, err)
	}
	var out []ListResult
	for r := range stream.Results {
		res := ListResult{DisplayName: r.DisplayName, Identity: p.IdentityOf(resource, r.Identity), Diagnostics: r.Diagnostics}
		if r.Resource != nil {
			res.Resource = p.State(resource, r.Resource)
		}
		out = append(out, res)
	}
	return out
}
