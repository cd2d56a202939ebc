package bootstrap_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// TestRobotHostQueryAdoptsFleet adopts three rented servers as hosts with
// `terraform query -generate-config-out` (Terraform 1.14 and later). Robot
// does not report the image a server runs, so the generated configuration
// has every attribute but image, and its plan fails naming image; with the
// image written in, the plan imports the three and only writes their
// marks, the apply installs nothing, and the next plan is empty.
func TestRobotHostQueryAdoptsFleet(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Query)
	m := acctest.NewMetal(t)
	var numbers []int
	for _, n := range []string{"db-1", "db-2", "db-3"} {
		s, err := m.Robot.AddServer(robotemu.ServerSeed{Name: n})
		if err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, s.Number)
	}
	if _, err := m.Robot.AddServer(robotemu.ServerSeed{Name: "kept-by-ops"}); err != nil {
		t.Fatal(err)
	}
	c := acctest.NewCLI(t, m.Account())
	c.MustRun("apply", "-auto-approve", "-input=false")
	out, gen := c.AdoptByQuery(`
list "compute_bootstrap_host" "db" {
  provider         = compute
  include_resource = true
  config {
    accounts    = [compute_provider_account.robot.id]
    name_prefix = "db-"
    managed     = false
  }
}
`, map[string]string{"image": strconv.Quote(robotImage)}, 3)
	for _, n := range numbers {
		if !strings.Contains(out, "id="+strconv.Itoa(n)) || !regexp.MustCompile(`machine_id\s+= "`+strconv.Itoa(n)+`"`).MatchString(gen) {
			t.Errorf("server %d is not in the query's output or the generated configuration:\n%s\n%s", n, out, gen)
		}
	}
	if strings.Contains(out, "kept-by-ops") {
		t.Errorf("the query found kept-by-ops, which its filters leave out:\n%s", out)
	}
	for _, n := range numbers {
		if err := installsOn(m.Machine(t, n), 0)(nil); err != nil {
			t.Error(err)
		}
	}
}

// TestHostListRefusesAccountThatCannotBootstrap: a list block of hosts over
// an account whose adapter cannot bootstrap is refused on its index, in the
// words the resource refuses the account with, when it is validated and
// when it is listed, and lists nothing.
func TestHostListRefusesAccountThatCannotBootstrap(t *testing.T) {
	t.Parallel()
	reg := provider.DefaultRegistry()
	loc, err := reg.Locate("hcloud", map[string]string{"token": "env://" + acctest.HetznerCloudTokenEnv, "endpoint": "http://127.0.0.1:9/v1"})
	if err != nil {
		t.Fatal(err)
	}
	p := acctest.NewProto(t, reg)
	config := map[string]tftypes.Value{
		"accounts": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{acctest.String(loc.String())}),
	}
	want := regexp.MustCompile(`^AttributeName\("accounts"\).ElementKeyInt\(0\): .*: accounts\[0\]: account .* is a hetzner_cloud account, and its adapter cannot bootstrap hosts .*hetzner_robot`)
	if errs := acctest.Diagnostics(p.ValidateList("compute_bootstrap_host", config), tfprotov6.DiagnosticSeverityError); len(errs) != 1 || !want.MatchString(errs[0]) {
		t.Errorf("validate: %v, want the refusal on accounts[0]", errs)
	}
	got := p.List("compute_bootstrap_host", config, false)
	if len(got) != 1 || got[0].DisplayName != "" {
		t.Fatalf("list: %+v, want one result of diagnostics", got)
	}
	if errs := acctest.Diagnostics(got[0].Diagnostics, tfprotov6.DiagnosticSeverityError); len(errs) != 1 || !want.MatchString(errs[0]) {
		t.Errorf("list: %v, want the refusal on accounts[0]", errs)
	}
	if errs := acctest.Diagnostics(p.ValidateList("compute_instance", config), tfprotov6.DiagnosticSeverityError); len(errs) != 0 {
		t.Errorf("the instances' list refuses the account: %v", errs)
	}
}
