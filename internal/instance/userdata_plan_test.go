package instance_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// picky takes user data only when it says nothing beyond "#cloud-config",
// as a backend does whose account lacks what delivering user data needs;
// it says so at plan, through Validate.
type picky struct {
	*basic
	creates int
}

// pickyRefusal is picky's reason, which never repeats the user data.
const pickyRefusal = "this account cannot deliver user data; configure delivery on the account, or bake the config into the image"

// pickyShown is pickyRefusal as a diagnostic shows it, beginning a paragraph
// led by the attribute it concerns (the diagnostic is on the resource).
var pickyShown = "user_data: " + pickyRefusal

func (p *picky) Validate(_ context.Context, req adapter.CreateRequest) error {
	if ud := strings.TrimSpace(req.UserData); ud != "" && ud != "#cloud-config" {
		return adapter.Errorf(adapter.InvalidInput, "%s", pickyRefusal).WithField(adapter.FieldUserData)
	}
	return nil
}

func (p *picky) Create(ctx context.Context, call adapter.Call, req adapter.CreateRequest) (adapter.Machine, error) {
	p.mu.Lock()
	p.creates++
	p.mu.Unlock()
	return p.basic.Create(ctx, call, req)
}

func pickyDefinition(p *picky) adapter.Definition {
	return adapter.Definition{
		Kind:        "picky",
		Description: "An adapter that takes little user data.",
		Settings:    []adapter.Setting{{Name: "token", Description: "token reference", Required: true, Role: adapter.RoleSecret}},
		New:         func(map[string]string, adapter.Env) (adapter.Adapter, error) { return p, nil },
	}
}

func newPicky() *picky { return &picky{basic: &basic{machines: map[string]adapter.Machine{}}} }

// userDataSentinel is user data whose text must never be shown.
const userDataSentinel = "#cloud-config\nwrite_files: [{path: /etc/key, content: SENTINEL-userdata-3b9f}]\n"

// TestInstanceUserDataRefusedAtPlan: user data the adapter refuses is an
// error on user_data at plan, before anything is created, for a new
// instance and for new user data that would replace one; user data it
// takes plans and applies.
func TestInstanceUserDataRefusedAtPlan(t *testing.T) {
	t.Parallel()
	p := newPicky()
	cfg := func(userData string) string {
		return `
resource "compute_provider_account" "test" {
  name  = "picky"
  picky = { token = "env://` + acctest.TokenEnv + `" }
}
resource "compute_instance" "web" {
  account   = compute_provider_account.test.id
  name      = "web-1"
  offer_id  = "small"
  image     = "plain"
  user_data = ` + strconv.Quote(userData) + `
}
`
	}
	creates := func() int { p.mu.Lock(); defer p.mu.Unlock(); return p.creates }
	refused := acctest.Match(`Unable to use instance configuration.*` + pickyShown)
	p2 := provider.New("test", provider.WithRegistry(adapter.NewRegistry(pickyDefinition(p))), provider.WithClock(acctest.FastClock{}))
	resource.Test(t, resource.TestCase{
		IsUnitTest: true,
		ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
			"compute": providerserver.NewProtocol6WithError(p2()),
		},
		Steps: []resource.TestStep{
			{Config: cfg(userDataSentinel), ExpectError: refused},
			{
				PreConfig: func() {
					if n := creates(); n != 0 {
						t.Errorf("%d creates after user data refused at plan, want none", n)
					}
				},
				Config: cfg("#cloud-config\n"),
			},
			{
				// New user data would replace the machine: the new one
				// is refused at plan, before the old one is destroyed.
				Config:      cfg(userDataSentinel),
				PlanOnly:    true,
				ExpectError: refused,
			},
			{
				Config:           cfg("#cloud-config\n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
	if n := creates(); n != 1 {
		t.Errorf("%d creates, want the one with user data the adapter takes", n)
	}
}

// TestInstanceUserDataRefusalOnResource: the refusal names user_data in its
// text but is on the resource, not the attribute (Terraform 1.15 and later
// would print the attribute's configuration, the user data itself), and
// nothing the provider says repeats the user data.
func TestInstanceUserDataRefusalOnResource(t *testing.T) {
	t.Parallel()
	reg := adapter.NewRegistry(pickyDefinition(newPicky()))
	loc, err := reg.Locate("picky", map[string]string{"token": "env://" + acctest.TokenEnv})
	if err != nil {
		t.Fatal(err)
	}
	planned, diags := acctest.NewProto(t, reg).Plan("compute_instance", map[string]tftypes.Value{
		"account":   acctest.String(loc.String()),
		"name":      acctest.String("web-1"),
		"offer_id":  acctest.String("small"),
		"image":     acctest.String("plain"),
		"user_data": acctest.String(userDataSentinel),
	})
	errs := acctest.Diagnostics(diags, tfprotov6.DiagnosticSeverityError)
	if planned != nil || len(errs) != 1 || !strings.HasPrefix(errs[0], `: Unable to use instance configuration: `) || !strings.Contains(errs[0], pickyShown) {
		t.Fatalf("plan with refused user data: %v, want one error on the resource naming user_data", errs)
	}
	for _, d := range diags {
		if strings.Contains(d.Summary+d.Detail, "SENTINEL-userdata") {
			t.Errorf("a diagnostic repeats the user data: %s: %s", d.Summary, d.Detail)
		}
	}
}
