package instance_test

import (
	"fmt"
	"net/url"
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
				ExpectError: acctest.Match(`Unable to use machine name.*name = "web 1" is not a machine name the hcloud adapter accepts`),
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

// TestInstanceImportMalformedMachineID: an import id whose MACHINE_ID the
// adapter could not have given fails the import itself, naming the form it
// expects, instead of the first read failing on it.
func TestInstanceImportMalformedMachineID(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, instance(e, "web-1"))
	account := "hcloud:endpoint=" + url.QueryEscape(e.Endpoint) + "&token=" + url.QueryEscape("env://"+acctest.HetznerCloudTokenEnv)
	out, err := cli.Run("import", addr, account+"/abc")
	if err == nil {
		t.Fatalf("the import of machine abc succeeded:\n%s", out)
	}
	want := acctest.Match(`Error: Unable to import instance .*is malformed: MACHINE_ID "abc" is not a machine id of the hcloud adapter, which must be a positive number: the server's id`)
	if !want.MatchString(out) {
		t.Errorf("the import does not say the id is malformed:\n%s", out)
	}
	if n := e.Stats()["GET /servers/{id}"]; n != 0 {
		t.Errorf("the import read %d servers; a malformed id must fail before any read", n)
	}
	if cli.Read("terraform.tfstate") != "" && strings.Contains(cli.Read("terraform.tfstate"), "/abc") {
		t.Errorf("the malformed id reached the state")
	}
}

// TestInstanceUnresolvableSecretWarnsAtPlan: a token reference that cannot
// be resolved where the plan runs is a warning, as the account docs
// promise, and the plan goes through; the apply then fails clearly and
// creates nothing.
func TestInstanceUnresolvableSecretWarnsAtPlan(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := e.AccountNamed("test", "env://COMPUTE_TEST_NOT_SET_ANYWHERE") + `
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "web-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`
	cli := acctest.NewCLI(t, cfg)
	out := cli.MustRun("plan", "-input=false", "-out=tfplan")
	for _, want := range []string{
		`Warning: Secret reference cannot be resolved`,
		`Warning: Instance not checked against the catalog`,
		`secret reference env://COMPUTE_TEST_NOT_SET_ANYWHERE: environment variable COMPUTE_TEST_NOT_SET_ANYWHERE is not set`,
		`checked at apply instead, which needs the secret`,
		`2 to add`,
	} {
		if !acctest.Match(want).MatchString(out) {
			t.Errorf("plan output lacks %q:\n%s", want, out)
		}
	}
	out, err := cli.Run("apply", "-input=false", "tfplan")
	if err == nil {
		t.Fatalf("the apply succeeded without the secret:\n%s", out)
	}
	if !acctest.Match(`Error: Unable to create provider account .*environment variable COMPUTE_TEST_NOT_SET_ANYWHERE is not set`).MatchString(out) {
		t.Errorf("the apply does not say why it failed:\n%s", out)
	}
	if n := len(e.Live()); n != 0 {
		t.Errorf("the failed apply left %d servers", n)
	}
}

// TestInstanceRefusedTokenWayOut: a token the backend refuses is about the
// credentials, not about a machine that may belong to someone else.
func TestInstanceRefusedTokenWayOut(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := e.AccountNamed("test", "env://"+acctest.WrongTokenEnv) + `
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "web-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`
	out, err := acctest.NewCLI(t, cfg).Run("plan", "-input=false")
	if err == nil {
		t.Fatalf("the plan passed with a refused token:\n%s", out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "The backend refused the account's credentials for this") || strings.Contains(flat, "someone else") {
		t.Errorf("the way out does not fit a refused token:\n%s", out)
	}
}

// TestInstanceAccountLocationUnknown: an instance that sets no location
// takes its account's; when the backend does not know that location, the
// error says that the account's location is the one to fix. (With the
// account in the same configuration, the account's own plan fails on it
// first.)
func TestInstanceAccountLocationUnknown(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	account := "hcloud:endpoint=" + url.QueryEscape(e.Endpoint) + "&location=xyz9&token=" + url.QueryEscape("env://"+acctest.HetznerCloudTokenEnv)
	cfg := fmt.Sprintf(`
resource "compute_instance" "web" {
  account  = %q
  name     = "web-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`, account)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      cfg,
			PlanOnly:    true,
			ExpectError: acctest.Match(`Unable to use instance configuration.*Instance "web-1" sets no location, so its account's location "xyz9" was used, and the backend does not know it\. Fix hetzner_cloud\.location of the compute_provider_account, or set location on this instance\..*Location "xyz9" does not exist`),
		}},
	})
}
