package examples_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

const (
	bootstrapTF       = "resources/compute_bootstrap_host/resource.tf"
	bootstrapImportSH = "resources/compute_bootstrap_host/import.sh"
)

// TestBootstrapHostExample checks the example against the provider's
// schema: every attribute it sets on compute_bootstrap_host exists, and
// import.sh has the id form ACCOUNT_ID/MACHINE_ID with the example's
// machine. TestBootstrapHostExampleApplies applies it.
func TestBootstrapHostExample(t *testing.T) {
	t.Parallel()
	hcl := readExample(t, bootstrapTF)
	srv, err := providers()["compute"]()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	host, ok := schemas.ResourceSchemas["compute_bootstrap_host"]
	if !ok {
		t.Fatal("the provider has no compute_bootstrap_host")
	}
	known := map[string]bool{}
	for _, a := range host.Block.Attributes {
		known[a.Name] = true
	}
	for _, b := range host.Block.BlockTypes {
		known[b.TypeName] = true
	}
	block := regexp.MustCompile(`(?s)resource "compute_bootstrap_host" "db" \{\n(.*?)\n\}`).FindStringSubmatch(hcl)
	if block == nil {
		t.Fatal("the example has no compute_bootstrap_host.db")
	}
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z_0-9]+)\s*(=|\{)`).FindAllStringSubmatch(block[1], -1) {
		if !known[m[1]] {
			t.Errorf("the example sets %s, which compute_bootstrap_host does not have", m[1])
		}
	}
	if !regexp.MustCompile(`(?m)^  machine_id\s*= "321456"`).MatchString(block[1]) ||
		!strings.Contains(readExample(t, bootstrapImportSH), "compute_bootstrap_host.db '") ||
		!strings.Contains(readExample(t, bootstrapImportSH), "/321456'") {
		t.Error("import.sh does not import compute_bootstrap_host.db with the example's machine 321456")
	}
}

// TestBootstrapHostExampleApplies applies the example, as written but for
// what points it at a test's dedicated-server world (acctest.Metal: the
// Robot webservice emulator, its SSH farm and an HTTPS first-boot server):
// the endpoint and SSH port, the machine, the account key's fingerprint and
// private key file, the first-boot URL and digest. The secrets come from
// the example's own references (env://ROBOT_USER, env://ROBOT_PASSWORD,
// env://APP_TOKEN) and its ephemeral variable. The host ends ready with
// both files on its installed disk, a second plan is empty, and destroy
// releases the server: unnamed again, not cancelled.
func TestBootstrapHostExampleApplies(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
	hcl := withSource(pointAtMetal(t, readExample(t, bootstrapTF), m, n))
	const dbPassword = "example-db-password-7f3a"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		Steps: []resource.TestStep{
			{
				Config:          hcl,
				ConfigVariables: config.Variables{"db_password": config.StringVariable(dbPassword)},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(bootstrapAddr, tfjsonpath.New("phase"), knownvalue.StringExact("ready")),
					statecheck.ExpectKnownValue(bootstrapAddr, tfjsonpath.New("ready"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(bootstrapAddr, tfjsonpath.New("machine_id"), knownvalue.StringExact(fmt.Sprint(n))),
					statecheck.ExpectKnownOutputValue("db_known_hosts", knownvalue.StringRegexp(knownHostsLine)),
				},
				Check: func(*terraform.State) error {
					if s, _ := m.Server(n); !strings.HasPrefix(s.Name, "db-1~cm~") {
						return fmt.Errorf("server %d is named %q, not claimed for db-1", n, s.Name)
					}
					if got := mach.Installs(); got != 1 {
						return fmt.Errorf("server %d was installed %d times, want 1", n, got)
					}
					key := m.InstalledHostKey(t, n)
					for path, want := range map[string]string{"/etc/app/token": appToken, "/etc/app/db-password": dbPassword} {
						if got := m.InstalledFile(t, n, key, path); got != want {
							return fmt.Errorf("%s on the installed disk holds %d bytes, not the example's value", path, len(got))
						}
					}
					return nil
				},
			},
			{
				Config:           hcl,
				ConfigVariables:  config.Variables{"db_password": config.StringVariable(dbPassword)},
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

const bootstrapAddr = "compute_bootstrap_host.db"

// pointAtMetal rewrites the example's account and host for m and its
// server n, failing the test when a line to rewrite is missing, so an
// example that drifts cannot silently apply something else.
func pointAtMetal(t *testing.T, hcl string, m *acctest.Metal, n int) string {
	t.Helper()
	for _, r := range []struct{ pattern, with string }{
		{`(?m)^([ \t]*)hetzner_robot = \{$`, fmt.Sprintf("${0}\n${1}  endpoint = %q\n${1}  ssh_port = %d", m.Endpoint, m.Farm.SSHPort())},
		{`(?m)^(\s*ssh_key\s*=\s*)"[^"]*"$`, fmt.Sprintf("${1}%q", m.KeyFingerprint)},
		{`(?m)^(\s*ssh_private_key\s*=\s*)"[^"]*"$`, fmt.Sprintf("${1}%q", m.SecretRef("id_ed25519"))},
		{`(?m)^(\s*machine_id\s*=\s*)"321456"$`, fmt.Sprintf(`${1}"%d"`, n)},
		{`(?m)^(\s*url\s*=\s*)"https://[^"]*"$`, fmt.Sprintf("${1}%q", m.BinaryURL)},
		{`(?m)^(\s*sha256\s*=\s*)"[0-9a-f]{64}"$`, fmt.Sprintf("${1}%q", m.BinarySHA256)},
	} {
		re := regexp.MustCompile(r.pattern)
		if len(re.FindAllString(hcl, -1)) != 1 {
			t.Fatalf("the example has not exactly one line matching %s to point at the test's emulators", r.pattern)
		}
		hcl = re.ReplaceAllString(hcl, r.with)
	}
	return hcl
}
