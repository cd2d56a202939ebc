package examples_test

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// The example files, relative to examples/. Each is exercised by a test below,
// and TestEveryExampleIsExercised fails when a file is added without one.
const (
	providerTF       = "provider/provider.tf"
	accountTF        = "resources/compute_provider_account/resource.tf"
	accountImportSH  = "resources/compute_provider_account/import.sh"
	instanceTF       = "resources/compute_instance/resource.tf"
	instanceImportSH = "resources/compute_instance/import.sh"
	instanceImportTF = "resources/compute_instance/import-by-string-id.tf"
	offersTF         = "data-sources/compute_offers/data-source.tf"
	machinesTF       = "data-sources/compute_machines/data-source.tf"
	quickstartDir    = "quickstart"
)

// exercisedExamples are the example files outside examples/guides that a
// test here applies; guides may include them too.
var exercisedExamples = map[string]bool{
	providerTF: true, accountTF: true, accountImportSH: true, instanceTF: true,
	instanceImportSH: true, instanceImportTF: true, offersTF: true, machinesTF: true,
	bootstrapTF: true, bootstrapImportSH: true,
}

// TestEveryExampleIsExercised walks examples/ and fails on a configuration or
// import script that no test here applies: the documentation shows every one.
func TestEveryExampleIsExercised(t *testing.T) {
	exercised := exercisedExamples
	var missing []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(p)
		switch {
		case d.IsDir() && (d.Name() == ".terraform" || rel == quickstartDir):
			// The quick start is applied whole, as a directory.
			return filepath.SkipDir
		case d.IsDir() && rel == guidesDir:
			// TestGuideExamplesAreExercised covers the guides' files.
			return filepath.SkipDir
		case d.IsDir():
			return nil
		}
		if ext := filepath.Ext(rel); (ext == ".tf" || ext == ".sh") && !exercised[rel] {
			missing = append(missing, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Errorf("examples without a test in this package: %v; add one that applies each", missing)
	}
	if !fileExists(filepath.Join(quickstartDir, "main.tf")) {
		t.Errorf("%s/main.tf is missing; TestQuickstart and make demo apply it", quickstartDir)
	}
}

// TestProviderExample applies examples/provider with its token variable set,
// plus an account that reads the token through provider://hcloud, so the
// secrets map the example shows is proven to reach an account.
func TestProviderExample(t *testing.T) {
	t.Parallel()
	e := startEmulator(t)
	hcl := readExample(t, providerTF) + fmt.Sprintf(`
resource "compute_provider_account" "from_provider_block" {
  name = "from-provider-block"
  hetzner_cloud = {
    token    = "provider://hcloud"
    endpoint = %q
  }
}
`, e.hcloud)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providers(),
		Steps: []resource.TestStep{{
			Config:          hcl,
			ConfigVariables: config.Variables{"hcloud_token": config.StringVariable(emulatorToken)},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("compute_provider_account.from_provider_block", "health.reachable", "true"),
			),
		}},
	})
}

// TestProviderAccountExample applies the account example, checks that the
// health checks of its Hetzner Cloud and Proxmox VE accounts reached the
// emulator (the latter through the pinned certificate, with the token from
// env://PROXMOX_API_TOKEN), and imports the first with the id from import.sh.
func TestProviderAccountExample(t *testing.T) {
	t.Parallel()
	e := startEmulator(t)
	address, id := importCommandID(t, accountImportSH, e)
	hcl := pointAtEmulator(t, readExample(t, accountTF), e)
	const lab = "compute_provider_account.lab"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providers(),
		Steps: []resource.TestStep{
			{
				Config: hcl,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(address, "id", id),
					resource.TestCheckResourceAttr(address, "adapter", "hcloud"),
					resource.TestCheckResourceAttr(address, "health.reachable", "true"),
					resource.TestCheckResourceAttr(lab, "adapter", "proxmox"),
					resource.TestCheckResourceAttr(lab, "health.reachable", "true"),
					resource.TestCheckResourceAttr(lab, "proxmox.node", "pve1"),
					func(*terraform.State) error {
						// The check is one authenticated read of the API.
						if n := e.pveStats(t)["GET /version"]; n < 1 {
							return fmt.Errorf("the Proxmox account's health check sent %d GET /version, want at least 1", n)
						}
						return nil
					},
				),
			},
			{
				// The import starts a state of its own, holding only what it
				// imports: an output of another account would be null there,
				// which the test framework cannot read.
				Config:            removeBlock(t, hcl, `output "lab_account_health" {`),
				ResourceName:      address,
				ImportState:       true,
				ImportStateId:     id,
				ImportStateVerify: true,
				// health is the time of the last check.
				ImportStateVerifyIgnore: []string{"health"},
			},
		},
	})
}

// TestOffersExample reads the offers example and checks that every offer it
// returns keeps the filters the example sets.
func TestOffersExample(t *testing.T) {
	t.Parallel()
	e := startEmulator(t)
	hcl := pointAtEmulator(t, readExample(t, offersTF), e)
	const ds = "data.compute_offers.medium"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providers(),
		Steps: []resource.TestStep{{
			Config: hcl,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrWith(ds, "offers.#", atLeast(1)),
				eachOffer(ds, func(o map[string]string) error {
					if o["location"] != "fsn1" {
						return fmt.Errorf("location %q, want fsn1", o["location"])
					}
					if n, _ := strconv.ParseFloat(o["vcpu"], 64); n < 4 {
						return fmt.Errorf("vcpu %s, want >= 4", o["vcpu"])
					}
					if n, _ := strconv.ParseFloat(o["memory_gib"], 64); n < 8 {
						return fmt.Errorf("memory_gib %s, want >= 8", o["memory_gib"])
					}
					if p, _ := strconv.ParseFloat(o["price_per_hour"], 64); p > 0.05 {
						return fmt.Errorf("price_per_hour %s, want <= 0.05", o["price_per_hour"])
					}
					return nil
				}),
				outputLen("cheapest_medium_offer", 4),
			),
		}},
	})
}

// TestInstanceExample applies the instance example, imports the machine back
// with the id form import.sh shows, then forgets it and adopts it again with
// the import block of import-by-string-id.tf: after each, a plan must be
// empty. Destroy is checked against the emulator, not the state.
func TestInstanceExample(t *testing.T) {
	t.Parallel()
	e := startEmulator(t)
	hcl := pointAtEmulator(t, readExample(t, instanceTF), e)
	_, cmdID := importCommandID(t, instanceImportSH, e)
	accountID, exampleMachineID := splitInstanceID(t, cmdID)

	var machineID string
	const web = "compute_instance.web"

	// The configuration once the machine is out of state but still running.
	forgotten := removeResourceBlock(t, hcl, "compute_instance", "web")
	forgotten = regexp.MustCompile(`(?s)output "web_[a-z0-9_]+" \{.*?\n\}\n`).ReplaceAllString(forgotten, "") + `
removed {
  from = compute_instance.web
  lifecycle {
    destroy = false
  }
}
`
	// The configuration adopting it again: the example's import block, with
	// the example's machine id swapped for the real one, and the resource
	// block renamed to the address the import block names.
	importBlock := readExample(t, instanceImportTF)
	if !strings.Contains(importBlock, "/"+exampleMachineID+`"`) {
		t.Fatalf("import-by-string-id.tf and import.sh disagree on the example machine id %s", exampleMachineID)
	}
	importBlock = strings.Replace(importBlock, "/"+exampleMachineID+`"`, `/${var.machine_id}"`, 1)
	adopted := strings.NewReplacer(
		`resource "compute_instance" "web"`, `resource "compute_instance" "legacy"`,
		"compute_instance.web.", "compute_instance.legacy.",
	).Replace(hcl) + "\n" + importBlock + `
variable "machine_id" {
  type = string
}
`

	// The configuration after an edit of what the machine reads at boot.
	const bootConfig = `boot_config = "net.core.somaxconn=4096"`
	if !strings.Contains(hcl, bootConfig) {
		t.Fatalf("%s no longer sets %s, which the restart step edits", instanceTF, bootConfig)
	}
	rebooted := strings.Replace(hcl, bootConfig, `boot_config = "net.core.somaxconn=8192"`, 1)

	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providers(),
		CheckDestroy:             e.checkNoServers,
		Steps: []resource.TestStep{
			{
				Config: hcl,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(web, "available_actions.#", "4"),
					resource.TestCheckResourceAttr(web, "available_actions.2", "reboot"),
					resource.TestCheckResourceAttr(web, "shutdown_timeout", "2m"),
					resource.TestCheckResourceAttr(web, "state", "running"),
					resource.TestCheckResourceAttr(web, "power", "on"),
					resource.TestCheckResourceAttr(web, "managed", "true"),
					resource.TestCheckResourceAttrSet(web, "ipv4_address"),
					resource.TestCheckResourceAttrSet(web, "user_data_sha256"),
					resource.TestCheckNoResourceAttr(web, "user_data"),
					func(s *terraform.State) error {
						rs := s.RootModule().Resources[web].Primary
						if acc := rs.Attributes["account"]; acc != accountID {
							return fmt.Errorf("instance account %q is not the account id %q of import.sh", acc, accountID)
						}
						machineID = rs.ID
						return nil
					},
				),
			},
			{
				// The restart happens in place: one reboot, the same machine.
				PreConfig: func() { e.resetStats(t) },
				Config:    rebooted,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(web, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(web, "state", "running"),
					func(s *terraform.State) error {
						if id := s.RootModule().Resources[web].Primary.ID; id != machineID {
							return fmt.Errorf("the restart changed the instance id to %s", id)
						}
						if n := e.stats(t)["POST /servers/{id}/actions/reboot"]; n != 1 {
							return fmt.Errorf("the restart sent %d reboots, want 1", n)
						}
						return nil
					},
				),
			},
			{
				ResourceName: web,
				ImportState:  true,
				ImportStateIdFunc: func(*terraform.State) (string, error) {
					return accountID + "/" + machineID, nil
				},
				ImportStateVerify: true,
				// Settings, not the machine's: an import records the default
				// shutdown_timeout and no triggers.
				ImportStateVerifyIgnore: []string{"timeouts", "user_data", "user_data_sha256", "shutdown_timeout", "triggers_restart"},
			},
			{
				Config: forgotten,
				Check: func(*terraform.State) error {
					names, err := e.serverNames(t.Context())
					if err != nil {
						return err
					}
					if len(names) != 1 || names[0] != "web-1" {
						return fmt.Errorf("after `removed` with destroy = false the emulator holds %v, want [web-1]", names)
					}
					return nil
				},
			},
			{
				Config:          adopted,
				ConfigVariables: config.Variables{"machine_id": lazyString{&machineID}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("compute_instance.legacy", "name", "web-1"),
					resource.TestCheckResourceAttr("compute_instance.legacy", "state", "running"),
					resource.TestCheckResourceAttr("compute_instance.legacy", "managed", "true"),
				),
			},
		},
	})
}

func atLeast(n int) resource.CheckResourceAttrWithFunc {
	return func(v string) error {
		got, err := strconv.Atoi(v)
		if err != nil || got < n {
			return fmt.Errorf("got %q, want at least %d", v, n)
		}
		return nil
	}
}

// outputLen checks that a root output is a map or object of n elements.
func outputLen(name string, n int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		o, ok := s.RootModule().Outputs[name]
		if !ok {
			return fmt.Errorf("output %s is not in state", name)
		}
		m, ok := o.Value.(map[string]any)
		if !ok {
			return fmt.Errorf("output %s is %T (%v), want an object", name, o.Value, o.Value)
		}
		if len(m) != n {
			return fmt.Errorf("output %s has %d elements, want %d: %v", name, len(m), n, m)
		}
		return nil
	}
}

// eachOffer applies check to every element of a compute_offers data source's
// offers list, as flat state attributes keyed by attribute name.
func eachOffer(ds string, check func(map[string]string) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[ds]
		if !ok {
			return fmt.Errorf("%s is not in state", ds)
		}
		attrs := rs.Primary.Attributes
		n, _ := strconv.Atoi(attrs["offers.#"])
		for i := range n {
			prefix := fmt.Sprintf("offers.%d.", i)
			o := map[string]string{}
			for k, v := range attrs {
				if rest, ok := strings.CutPrefix(k, prefix); ok {
					o[rest] = v
				}
			}
			if err := check(o); err != nil {
				return fmt.Errorf("%s offer %d (%s): %w", ds, i, o["id"], err)
			}
		}
		return nil
	}
}

// splitInstanceID cuts an instance id into account id and machine id.
func splitInstanceID(t *testing.T, id string) (account, machine string) {
	t.Helper()
	account, machine, ok := cutLast(id, "/")
	if !ok {
		t.Fatalf("%q is not ACCOUNT_ID/MACHINE_ID", id)
	}
	return account, machine
}

func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// removeResourceBlock deletes `resource "TYPE" "NAME" { ... }` from hcl,
// counting braces so nested blocks and heredocs with braces stay intact
// as long as they balance.
func removeResourceBlock(t *testing.T, hcl, typ, name string) string {
	t.Helper()
	head := fmt.Sprintf("resource %q %q {", typ, name)
	start := strings.Index(hcl, head)
	if start < 0 {
		t.Fatalf("no %s block in the example", head)
	}
	depth := 0
	for i := start; i < len(hcl); i++ {
		switch hcl[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return hcl[:start] + hcl[i+1:]
			}
		}
	}
	t.Fatalf("unbalanced braces after %s", head)
	return ""
}
