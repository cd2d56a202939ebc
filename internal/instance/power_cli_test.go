package instance_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestInstancePowerFallbacksWarnCLI runs the two fallbacks through the
// terraform binary, which shows warnings: a reboot that keeps failing is
// given up for a reset once shutdown_timeout has passed, and a guest that
// ignores ACPI is powered off hard. Each is warned about and logged.
func TestInstancePowerFallbacksWarnCLI(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := func(extra ...string) string {
		return instance(e, "fall-1", append([]string{`shutdown_timeout = "2s"`}, extra...)...)
	}
	cli := acctest.NewCLI(t, "")
	cli.Write("instance.tf", cfg(`triggers_restart = { config = "v1" }`))
	logPath := filepath.Join(t.TempDir(), "terraform.log")
	cli.Setenv("TF_LOG_PROVIDER", "WARN")
	cli.Setenv("TF_LOG_PATH", logPath)
	cli.MustRun("apply", "-auto-approve")

	e.FailNextAction("reboot_server", 1_000, "action_failed", "the guest did not answer")
	e.ResetStats()
	cli.Write("instance.tf", cfg(`triggers_restart = { config = "v2" }`))
	out := flat(cli.MustRun("apply", "-auto-approve"))
	for _, want := range []string{"Warning: Machine reset hard", "the reboot was not done within shutdown_timeout (2s), so it was reset", `set shutdown_timeout = "0s" to reset it at once`} {
		if !strings.Contains(out, want) {
			t.Errorf("apply output lacks %q:\n%s", want, out)
		}
	}
	s, _ := e.ServerNamed("fall-1")
	// A reset sent while the last failed reboot still locks the server is
	// refused and sent again: one restart is what counts.
	if c := powerCalls(e); c["reboot"] < 1 || c["reset"] < 1 || s.Restarts != 1 {
		t.Errorf("power actions %v and %d restarts; want reboots, then a reset and one restart", c, s.Restarts)
	}

	e.SetIgnoresACPI(s.ID, true)
	e.ResetStats()
	cli.Write("instance.tf", cfg(`triggers_restart = { config = "v2" }`, `power = "off"`))
	out = flat(cli.MustRun("apply", "-auto-approve"))
	for _, want := range []string{"Warning: Machine powered off hard", "was not off within shutdown_timeout (2s), so its power was cut", `set shutdown_timeout = "0s" to power it off at once`} {
		if !strings.Contains(out, want) {
			t.Errorf("apply output lacks %q:\n%s", want, out)
		}
	}
	if c, s := powerCalls(e), server(t, e, "fall-1"); c["shutdown"] != 1 || c["poweroff"] < 1 || s.Status != "off" {
		t.Errorf("power actions %v, status %s; want one shutdown, then poweroff and off", c, s.Status)
	}

	// "0s" cuts the power at once: no request to the guest, no warning.
	cli.Write("instance.tf", instance(e, "fall-1", `shutdown_timeout = "0s"`))
	cli.MustRun("apply", "-auto-approve")
	e.ResetStats()
	cli.Write("instance.tf", instance(e, "fall-1", `shutdown_timeout = "0s"`, `power = "off"`))
	if out := flat(cli.MustRun("apply", "-auto-approve")); strings.Contains(out, "Warning: Machine powered off hard") {
		t.Errorf("shutdown_timeout = \"0s\" warned of a fallback:\n%s", out)
	}
	if c := powerCalls(e); c["shutdown"] != 0 || c["poweroff"] != 1 {
		t.Errorf("with shutdown_timeout = \"0s\": power actions %v; want one poweroff alone", c)
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Machine reset hard", "Machine powered off hard"} {
		if linesWith(string(log), want, "[WARN]", fmt.Sprintf("machine_id=%d", s.ID), "shutdown_timeout=2s") != 1 {
			t.Errorf("the provider's log holds no single WARN line %q for machine %d:\n%s", want, s.ID, log)
		}
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

func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// linesWith counts the lines of log that hold every part.
func linesWith(log string, parts ...string) int {
	n := 0
	for _, line := range strings.Split(log, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			n++
		}
	}
	return n
}

// TestInstanceLostStateDoesNotRestart: a state whose machine another state
// adopted refuses a restart at plan, and at apply without a refresh.
func TestInstanceLostStateDoesNotRestart(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	first := acctest.NewCLI(t, instance(e, "shared-r", `triggers_restart = { config = "v1" }`))
	first.MustRun("apply", "-auto-approve")
	second := acctest.NewCLI(t, instance(e, "shared-r"))
	second.MustRun("apply", "-auto-approve")
	e.ResetStats()

	first.Write("main.tf", strings.Replace(first.Read("main.tf"), `"v1"`, `"v2"`, 1))
	out, err := first.Run("plan")
	if err == nil || !acctest.Match(`Error: Unable to change instance held by another state.*held by another Terraform state`).MatchString(out) {
		t.Fatalf("the first state planned a restart of a machine it lost: %v\n%s", err, out)
	}
	out, err = first.Run("apply", "-auto-approve", "-refresh=false")
	if err == nil || !acctest.Match(`held by another Terraform state`).MatchString(out) {
		t.Fatalf("the first state restarted a machine it lost: %v\n%s", err, out)
	}
	if c, s := powerCalls(e), server(t, e, "shared-r"); c["reboot"]+c["reset"] != 0 || s.Restarts != 0 {
		t.Fatalf("the machine was restarted by the state that lost it: %v, %d restarts", c, s.Restarts)
	}
	second.MustRun("destroy", "-auto-approve")
}
