package instance_test

import (
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestInstanceGenerateConfigCLI drives the terraform binary the way a user
// adopts a server: an import block, plan -generate-config-out, apply. The
// generated configuration holds only what a user writes, its plan only
// writes the mark, and afterwards the plan is empty. Deleting the server
// outside Terraform then warns and plans a new one.
func TestInstanceGenerateConfigCLI(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	id := e.AddServer(emu.Server{Name: "legacy", Labels: map[string]string{"owner": "ops"}})
	cli := acctest.NewCLI(t, e.Account())
	cli.MustRun("apply", "-auto-approve")
	cli.Write("import.tf", fmt.Sprintf(`
import {
  to = compute_instance.legacy
  id = "${compute_provider_account.test.id}/%d"
}
`, id))

	out := cli.MustRun("plan", "-generate-config-out=generated.tf")
	gen := cli.Read("generated.tf")
	for _, attr := range []string{"account", "name", "offer_id", "image", "location", "labels", "power"} {
		if !regexp.MustCompile(`(?m)^\s+` + attr + `\s+=`).MatchString(gen) {
			t.Errorf("generated configuration lacks %s:\n%s", attr, gen)
		}
	}
	for _, attr := range []string{"id", "state", "raw_state", "ipv4_address", "ipv6_address", "created_at", "managed", "user_data_sha256"} {
		if regexp.MustCompile(`(?m)^\s+` + attr + `\s+=`).MatchString(gen) {
			t.Errorf("generated configuration sets computed-only %s:\n%s", attr, gen)
		}
	}
	if !regexp.MustCompile(`managed\s+= false -> true`).MatchString(out) || !strings.Contains(out, "1 to import, 0 to add, 1 to change, 0 to destroy") {
		t.Errorf("the plan should import the server and only write its mark:\n%s", out)
	}

	cli.MustRun("apply", "-auto-approve")
	if s, _ := e.Server(id); s.Labels["compute.seedcompute.io/managed"] != "true" {
		t.Fatalf("the apply did not mark the imported server: %v", s.Labels)
	}
	if out, err := cli.Run("plan", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after adopting the server is not empty (%v):\n%s", err, out)
	}

	e.RemoveServer(id)
	out, err := cli.Run("plan", "-detailed-exitcode")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("plan after the server was deleted outside should exit 2 (changes), got %v:\n%s", err, out)
	}
	for _, want := range []string{"Warning: Instance is gone", "the next apply creates it again", "compute_instance.legacy will be created"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan output lacks %q:\n%s", want, out)
		}
	}
}

// TestInstanceUnmarkedNotDeleted: a server imported with terraform import
// and destroyed before any apply wrote the mark is refused, with the way out;
// the server stays.
func TestInstanceUnmarkedNotDeleted(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	id := e.AddServer(emu.Server{Name: "precious"})
	cli := acctest.NewCLI(t, e.Account()+`
output "account_id" {
  value = compute_provider_account.test.id
}

resource "compute_instance" "precious" {
  account  = compute_provider_account.test.id
  name     = "precious"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`)
	cli.MustRun("apply", "-auto-approve", "-target=compute_provider_account.test")
	accountID := strings.TrimSpace(cli.MustRun("output", "-raw", "account_id"))
	cli.MustRun("import", "compute_instance.precious", fmt.Sprintf("%s/%d", accountID, id))
	out, err := cli.Run("destroy", "-auto-approve")
	if err == nil {
		t.Fatalf("destroy of an unmarked server succeeded:\n%s", out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Unable to delete instance", "run terraform apply once so the mark is written", "`terraform state rm`", "carries no compute.seedcompute.io/managed label"} {
		if !strings.Contains(flat, want) {
			t.Errorf("destroy output lacks %q:\n%s", want, out)
		}
	}
	if _, ok := e.Server(id); !ok {
		t.Fatal("the unmarked server was deleted")
	}
	cli.MustRun("state", "rm", "compute_instance.precious")
	cli.MustRun("destroy", "-auto-approve")
	if _, ok := e.Server(id); !ok {
		t.Fatal("the unmarked server was deleted after state rm")
	}
}
