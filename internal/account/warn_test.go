package account_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// quiet is a backend that answers every check; only its settings matter here.
type quiet struct{}

func (quiet) Kind() string { return "quiet" }
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

// TestAccountSettingWarns: a setting whose value its adapter warns about is
// a warning on that setting, naming it with its value and the way out, at
// plan and again at apply; the same setting with a harmless value is quiet.
func TestAccountSettingWarns(t *testing.T) {
	t.Parallel()
	p := acctest.NewProto(t, adapter.NewRegistry(quietDefinition()))
	blockType := p.Type("compute_provider_account").AttributeTypes["quiet_box"].(tftypes.Object)

	plan := func(settings map[string]string) (warns []string) {
		t.Helper()
		values := map[string]tftypes.Value{}
		for k, v := range settings {
			values[k] = acctest.String(v)
			if v == unknown {
				values[k] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
			}
		}
		config := map[string]tftypes.Value{"name": acctest.String("box"), "quiet_box": acctest.NullsBut(blockType, values)}
		planned, diags := p.Plan("compute_provider_account", config)
		if planned == nil {
			t.Fatalf("plan: %v", diags)
		}
		warns = acctest.Diagnostics(diags, tfprotov6.DiagnosticSeverityWarning)
		if slices.Contains(slices.Collect(maps.Values(settings)), unknown) {
			// Not applied: Terraform applies only known values.
			return warns
		}
		diags = p.Apply("compute_provider_account", config, planned)
		if acctest.HasError(diags) {
			t.Fatalf("apply: %v", diags)
		}
		for _, w := range acctest.Diagnostics(diags, tfprotov6.DiagnosticSeverityWarning) {
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
