package account_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// quiet is a backend that answers every check; only its settings matter here.
type quiet struct{}

func (quiet) Kind() string                       { return "quiet" }
func (quiet) Capabilities() adapter.Capabilities { return nil }
func (quiet) ListOffers(context.Context, adapter.Query) ([]adapter.Offer, error) {
	return []adapter.Offer{}, nil
}
func (quiet) Create(context.Context, adapter.Call, adapter.CreateRequest) (adapter.Machine, error) {
	return adapter.Machine{}, adapter.Errorf(adapter.Unsupported, "quiet creates nothing")
}
func (quiet) Get(context.Context, string) (adapter.Machine, error) {
	return adapter.Machine{}, adapter.Errorf(adapter.NotFound, "quiet holds nothing")
}
func (quiet) Delete(context.Context, string) error {
	return adapter.Errorf(adapter.NotFound, "quiet holds nothing")
}

// insecureWarning is what the quiet backend says of its insecure setting.
const insecureWarning = "certificates are not verified; pin the server's certificate instead, and remove insecure"

func quietDefinition() adapter.Definition {
	warn := func(v string) string {
		if v == "true" {
			return insecureWarning
		}
		return ""
	}
	return adapter.Definition{
		Kind:        "quiet",
		Description: "A backend that answers every check.",
		Block:       "quiet_box",
		Settings: []adapter.Setting{
			{Name: "token", Description: "token reference", Required: true, Role: adapter.RoleSecret},
			{Name: "insecure", Description: "skip verification", Default: "false", Warn: warn},
			// loud warns with its default, so a setting left out warns too.
			{Name: "loud", Description: "a risky default", Default: "on", Warn: func(v string) string {
				if v == "on" {
					return "loud is on by default; set loud = \"off\""
				}
				return ""
			}},
		},
		New: func(map[string]string, adapter.Env) (adapter.Adapter, error) { return quiet{}, nil },
	}
}

// unknown stands for a value known only at apply.
const unknown = "(known after apply)"

// warnings lists the warnings of diags as "PATH: SUMMARY: DETAIL".
func warnings(diags []*tfprotov6.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning {
			out = append(out, d.Attribute.String()+": "+d.Summary+": "+d.Detail)
		}
	}
	return out
}

// TestAccountSettingWarns: a setting whose value its adapter warns about is
// a warning on that setting, naming it with its value and the way out, at
// plan and again at apply; the same setting with a harmless value is quiet.
func TestAccountSettingWarns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := provider.New("test", provider.WithRegistry(adapter.NewRegistry(quietDefinition())))
	srv, err := providerserver.NewProtocol6WithError(p())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		t.Fatalf("schema: %v %v", err, schemas.Diagnostics)
	}
	providerType := schemas.Provider.ValueType().(tftypes.Object)
	cfg := dynamic(t, providerType, nullsBut(providerType, nil))
	if resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &cfg}); err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
	accountType := schemas.ResourceSchemas["compute_provider_account"].ValueType().(tftypes.Object)
	blockType := accountType.AttributeTypes["quiet_box"].(tftypes.Object)

	plan := func(settings map[string]string) (warns []string) {
		t.Helper()
		values := map[string]tftypes.Value{}
		for k, v := range settings {
			values[k] = tftypes.NewValue(tftypes.String, v)
			if v == unknown {
				values[k] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
			}
		}
		config := nullsBut(accountType, map[string]tftypes.Value{
			"name":      tftypes.NewValue(tftypes.String, "box"),
			"quiet_box": nullsBut(blockType, values),
		})
		c := dynamic(t, accountType, config)
		prior := dynamic(t, accountType, tftypes.NewValue(accountType, nil))
		planned, err := srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
			TypeName: "compute_provider_account", PriorState: &prior, ProposedNewState: &c, Config: &c,
		})
		if err != nil || hasError(planned.Diagnostics) {
			t.Fatalf("plan: %v %v", err, planned.Diagnostics)
		}
		warns = append(warns, warnings(planned.Diagnostics)...)
		if slices.Contains(slices.Collect(maps.Values(settings)), unknown) {
			// Not applied: Terraform applies only known values.
			return warns
		}
		applied, err := srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
			TypeName: "compute_provider_account", PriorState: &prior, PlannedState: planned.PlannedState, Config: &c,
		})
		if err != nil || hasError(applied.Diagnostics) {
			t.Fatalf("apply: %v %v", err, applied.Diagnostics)
		}
		for _, w := range warnings(applied.Diagnostics) {
			warns = append(warns, "apply "+w)
		}
		return warns
	}

	got := plan(map[string]string{"token": "env://" + acctest.TokenEnv, "insecure": "true", "loud": "off"})
	want := `AttributeName("quiet_box").AttributeName("insecure"): Account setting weakens the account: quiet_box.insecure = "true" of compute_provider_account: ` + insecureWarning
	if len(got) != 2 || got[0] != want || got[1] != "apply "+want {
		t.Errorf("insecure = true: warnings\n%s\nwant at plan and apply:\n%s", strings.Join(got, "\n"), want)
	}
	if got := plan(map[string]string{"token": "env://" + acctest.TokenEnv, "insecure": "false", "loud": "off"}); len(got) != 0 {
		t.Errorf("harmless values warn:\n%s", strings.Join(got, "\n"))
	}
	// A value known only at apply leaves the known ones to warn at plan.
	got = plan(map[string]string{"token": unknown, "insecure": "true", "loud": "off"})
	if len(got) != 1 || got[0] != want {
		t.Errorf("with the token unknown: warnings\n%s\nwant at plan:\n%s", strings.Join(got, "\n"), want)
	}
	got = plan(map[string]string{"token": "env://" + acctest.TokenEnv})
	if len(got) != 2 || !strings.Contains(got[0], `quiet_box.loud = "on" of compute_provider_account: loud is on by default; set loud = "off"`) {
		t.Errorf("a risky default warns nothing when left out:\n%s", strings.Join(got, "\n"))
	}
}

func hasError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// nullsBut is an object of typ whose attributes are null but for values.
func nullsBut(typ tftypes.Object, values map[string]tftypes.Value) tftypes.Value {
	attrs := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
		if v, ok := values[name]; ok {
			attrs[name] = v
		}
	}
	return tftypes.NewValue(typ, attrs)
}

func dynamic(t *testing.T, typ tftypes.Type, v tftypes.Value) tfprotov6.DynamicValue {
	t.Helper()
	d, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
