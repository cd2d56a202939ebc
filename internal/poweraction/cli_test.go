package poweraction_test

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// web is an instance named name on e's account, and the action kind named
// "web" on it.
func web(e *acctest.Emulator, name, kind string, extra ...string) string {
	return e.Account() + fmt.Sprintf(`
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = %q
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  %s
}

action "compute_instance_%s" "web" {
  config {
    instance = compute_instance.web
  }
}
`, name, strings.Join(extra, "\n  "), kind)
}

func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestInvokeRebootCLI: `terraform apply -invoke` reboots the instance once,
// and the next plan is empty.
func TestInvokeRebootCLI(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Actions)
	e := acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, web(e, "act-1", "reboot"))
	cli.MustRun("apply", "-auto-approve")
	e.ResetStats()
	out := cli.MustRun("apply", "-auto-approve", "-invoke=action.compute_instance_reboot.web")
	t.Log(out)
	s := server(t, e, "act-1")
	if s.Restarts != 1 || e.Stats()["POST /servers/{id}/actions/reboot"] != 1 {
		t.Errorf("after the invoke: %d restarts, %d reboot requests; want one each", s.Restarts, e.Stats()["POST /servers/{id}/actions/reboot"])
	}
	plan := cli.MustRun("plan", "-detailed-exitcode")
	if !strings.Contains(plan, "No changes.") {
		t.Errorf("the plan after the reboot is not empty:\n%s", plan)
	}

	// A machine switched off by an action, which its configuration wants
	// on, shows the change in the next plan: what really changed.
	cli.Write("off.tf", `
action "compute_instance_power_off" "web" {
  config {
    instance = compute_instance.web
  }
}
`)
	cli.MustRun("apply", "-auto-approve", "-invoke=action.compute_instance_power_off.web")
	if s := server(t, e, "act-1"); s.Status != "off" {
		t.Fatalf("after power_off the server is %s", s.Status)
	}
	plan, err := cli.Run("plan", "-detailed-exitcode")
	if err == nil || !strings.Contains(flat(plan), `~ power = "off" -> "on"`) {
		t.Errorf("the plan after power_off does not switch the machine back on (%v):\n%s", err, plan)
	}

	// The plan of a reboot reads the machine stopped and refuses it there.
	e.ResetStats()
	plan, err = cli.Run("plan", "-invoke=action.compute_instance_reboot.web")
	if err == nil || !strings.Contains(flat(plan), "and a reboot acts on a running machine only") {
		t.Errorf("the plan of a reboot of the stopped machine is not refused (%v):\n%s", err, plan)
	}
	if n := e.Stats()["POST /servers/{id}/actions/reboot"]; n != 0 {
		t.Errorf("the refused plan sent %d reboots", n)
	}
}

// TestInvokeRefusesAnotherStatesMachineCLI: a configuration that names a
// machine another state holds, by its account and id, is refused at plan,
// before anything is invoked, naming the machine; nothing is sent.
func TestInvokeRefusesAnotherStatesMachineCLI(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Actions)
	e := acctest.NewEmulator(t)
	holder := acctest.NewCLI(t, web(e, "held-1", "reboot"))
	holder.MustRun("apply", "-auto-approve")
	s := server(t, e, "held-1")

	other := acctest.NewCLI(t, e.Account()+fmt.Sprintf(`
action "compute_instance_reboot" "theirs" {
  config {
    instance = {
      account = compute_provider_account.test.id
      id      = "%d"
    }
  }
}
`, s.ID))
	// That configuration's own account first: -invoke plans nothing else.
	other.MustRun("apply", "-auto-approve")
	e.ResetStats()
	out, err := other.Run("apply", "-auto-approve", "-invoke=action.compute_instance_reboot.theirs")
	t.Log(out)
	if err == nil {
		t.Fatalf("the invoke of another state's machine succeeded:\n%s", out)
	}
	if got := flat(out); !strings.Contains(got, fmt.Sprintf("Machine %d (\"held-1\")", s.ID)) || !strings.Contains(got, "is held by another Terraform state") {
		t.Errorf("the refusal does not name machine %d and its holder:\n%s", s.ID, out)
	}
	if n := e.Stats()["POST /servers/{id}/actions/reboot"]; n != 0 || server(t, e, "held-1").Restarts != 0 {
		t.Errorf("the refused invoke sent %d reboots", n)
	}
}

func server(t *testing.T, e *acctest.Emulator, name string) emu.Server {
	t.Helper()
	s, ok := e.ServerNamed(name)
	if !ok {
		t.Fatalf("server %s is missing", name)
	}
	return s
}

// TestInvokeRebootOfBootstrapHostCLI: an action takes a
// compute_bootstrap_host as its instance, as it takes a compute_instance
// (Terraform keeps the attributes the action's instance object has): a
// reboot of an installed Robot host sends one reboot, and the next plan is
// empty. Terraform 1.14 or later, on the dedicated-server world.
func TestInvokeRebootOfBootstrapHostCLI(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Actions)
	m := acctest.NewMetal(t)
	n, _ := m.AddServer(t, "")
	cli := acctest.NewCLI(t, m.Account()+fmt.Sprintf(`
resource "compute_bootstrap_host" "db" {
  account    = compute_provider_account.robot.id
  hostname   = "db-1"
  machine_id = "%d"
  image      = "Ubuntu-2404-noble-amd64-base"
  %s
}

action "compute_instance_reboot" "db" {
  config {
    instance = compute_bootstrap_host.db
  }
}
`, n, m.FirstBoot()))
	cli.MustRun("apply", "-auto-approve")
	before := m.Robot.Stats()
	out := cli.MustRun("apply", "-auto-approve", "-invoke=action.compute_instance_reboot.db")
	t.Log(out)
	if !strings.Contains(flat(out), fmt.Sprintf("machine %d is running: asking for reboot", n)) {
		t.Errorf("the invoke did not reboot host %d:\n%s", n, out)
	}
	if resets := m.Robot.Stats()["POST /reset/{id}"] - before["POST /reset/{id}"]; resets != 1 {
		t.Errorf("the reboot of host %d sent %d reset requests; want one", n, resets)
	}
	if plan := cli.MustRun("plan", "-detailed-exitcode"); !strings.Contains(plan, "No changes.") {
		t.Errorf("the plan after the host's reboot is not empty:\n%s", plan)
	}
}

// TestInvokeRescueCLI: `terraform apply -invoke` boots the instance's Robot
// server into its rescue system, and the next plan is empty; the rescue
// password Robot answered with is in neither the output, the TRACE log
// nor the state.
func TestInvokeRescueCLI(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Actions)
	r := newMetalRig(t)
	n, mach := r.m.AddServer(t, "AX42")
	cli := acctest.NewCLI(t, r.m.AccountAs("", r.tapURL, "")+acctest.InstanceBlock{Resource: "web", Account: "robot", Name: "rescue-cli",
		Offer: "AX42", Image: "Ubuntu-2404-noble-amd64-base"}.HCL(`timeouts { delete = "30s" }`)+`
action "compute_instance_rescue" "web" {
  config {
    instance = compute_instance.web
  }
}
`)
	invokeRescueSealed(t, cli, r.tap.Seen, func() {
		if got := mach.Booted(); got != "rescue" {
			t.Errorf("after the invoke server %d runs %q, not its rescue system", n, got)
		}
	})
}

// TestInvokeRescueHcloudCLI: `terraform apply -invoke` boots the instance's
// Hetzner Cloud server into its rescue system with the account's project
// key, and the next plan is empty; the root password enable_rescue answered
// is in neither the output, the TRACE log nor the state.
func TestInvokeRescueHcloudCLI(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Actions)
	e := acctest.NewEmulator(t)
	e.AddSSHKey("ops", emu.ExamplePublicKey)
	tap := emu.NewPasswordTap(e.Emulator)
	srv := httptest.NewServer(tap)
	t.Cleanup(srv.Close)
	cli := acctest.NewCLI(t, fmt.Sprintf(`
resource "compute_provider_account" "test" {
  name = "test"
  hetzner_cloud = {
    token           = "env://%s"
    endpoint        = %q
    rescue_ssh_keys = "ops"
  }
}
`, acctest.HetznerCloudTokenEnv, srv.URL+emu.BasePath)+strings.TrimPrefix(web(e, "rescue-cli", "rescue"), e.Account()))
	invokeRescueSealed(t, cli, tap.Seen, func() {
		if s := server(t, e, "rescue-cli"); !s.InRescue || s.RescueEnabled {
			t.Errorf("after the invoke: in rescue %t, rescue_enabled %t; want booted into rescue, disarmed", s.InRescue, s.RescueEnabled)
		}
	})
}

// invokeRescueSealed applies cli's configuration, invokes
// action.compute_instance_rescue.web under TF_LOG=TRACE and runs booted to
// check the machine; then the next plan must be empty, and no rescue
// password the backend handed out (seen) may be in the output, the TRACE
// log or the state.
func invokeRescueSealed(t *testing.T, cli *acctest.CLI, seen func() []string, booted func()) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "trace.log")
	cli.Setenv("TF_LOG", "TRACE")
	cli.Setenv("TF_LOG_PATH", logPath)
	cli.MustRun("apply", "-auto-approve")
	out := cli.MustRun("apply", "-auto-approve", "-invoke=action.compute_instance_rescue.web")
	t.Log(out)
	booted()
	plan := cli.MustRun("plan", "-detailed-exitcode")
	t.Log(plan)
	if !strings.Contains(plan, "No changes.") {
		t.Errorf("the plan after the boot into rescue is not empty:\n%s", plan)
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	passwords := seen()
	if len(passwords) == 0 {
		t.Fatal("the backend answered no rescue password, so the sentinel check would pass vacuously")
	}
	for _, pw := range passwords {
		for what, text := range map[string]string{"output": out + plan, "TRACE log": string(log), "state": cli.Read("terraform.tfstate")} {
			if strings.Contains(text, pw) {
				t.Errorf("a rescue password is in the %s", what)
			}
		}
	}
}
