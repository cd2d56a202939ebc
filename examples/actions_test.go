package examples_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// The action examples, each exercised by TestActionExamples.
var actionExamples = []string{
	"actions/compute_instance_power_off/action.tf",
	"actions/compute_instance_power_on/action.tf",
	"actions/compute_instance_shutdown/action.tf",
	"actions/compute_instance_reboot/action.tf",
	"actions/compute_instance_reset/action.tf",
}

const actionTriggerTF = "actions/compute_instance_reboot/action_trigger.tf"

func init() {
	for _, f := range append(actionExamples, actionTriggerTF) {
		exercisedExamples[f] = true
	}
}

// TestActionExamples runs every action example on the instance example's
// machine, from one action_trigger in the order off, on, shutdown, on,
// reboot, reset, and checks that each sent its one request and that the
// plan after them is empty (the framework fails the step otherwise). Then
// the action_trigger example reboots its instance when a label changes,
// and only then, and not when the change switches the machine off.
// Terraform 1.14 or later: older releases have no actions.
func TestActionExamples(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Actions)
	e := startEmulator(t)
	hcl := readExample(t, instanceTF)
	for _, f := range actionExamples {
		hcl += readExample(t, f)
	}
	hcl = pointAtEmulator(t, hcl+`
resource "terraform_data" "exercise" {
  input = compute_instance.web.id
  lifecycle {
    action_trigger {
      events = [after_create]
      actions = [
        action.compute_instance_power_off.web,
        action.compute_instance_power_on.web,
        action.compute_instance_shutdown.web,
        action.compute_instance_power_on.web,
        action.compute_instance_reboot.web,
        action.compute_instance_reset.web,
      ]
    }
  }
}
`, e)
	trigger := func(version string) string {
		cfg := pointAtEmulator(t, readExample(t, instanceTF)+readExample(t, actionTriggerTF), e)
		return replaceOnce(t, cfg, `labels   = { config_version = "1" }`, fmt.Sprintf(`labels   = { config_version = %q }`, version))
	}
	powerCalls := func(want map[string]int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			got := map[string]int{}
			for route, n := range e.stats(t) {
				if a, ok := strings.CutPrefix(route, "POST /servers/{id}/actions/"); ok && n > 0 {
					got[a] = n
				}
			}
			for a, n := range want {
				if got[a] != n {
					return fmt.Errorf("power requests %v, want %v", got, want)
				}
			}
			for a := range got {
				if _, ok := want[a]; !ok {
					return fmt.Errorf("power requests %v, want %v", got, want)
				}
			}
			e.resetStats(t)
			return nil
		}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providers(),
		CheckDestroy:             e.checkNoServers,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { e.resetStats(t) },
				Config:    hcl,
				Check: powerCalls(map[string]int{
					"poweroff": 1, "poweron": 2, "shutdown": 1, "reboot": 1, "reset": 1,
				}),
			},
			{Config: trigger("1"), Check: powerCalls(map[string]int{})},
			{Config: trigger("2"), Check: powerCalls(map[string]int{"reboot": 1})},
			// An update that switches the machine off does not reboot it.
			{
				Config: replaceOnce(t, trigger("3"), `labels   = { config_version = "3" }`, `labels   = { config_version = "3" }
  power    = "off"`),
				Check: powerCalls(map[string]int{"shutdown": 1}),
			},
		},
	})
}

const rescueTF = "actions/compute_instance_rescue/action.tf"

func init() { exercisedExamples[rescueTF] = true }

// TestRescueActionExample applies the rescue example on the Robot emulator
// and its SSH farm, invokes its action from an action_trigger, and checks
// that the server runs its rescue system and that the plan after it is
// empty (the framework fails the step otherwise). Terraform 1.14 or later.
func TestRescueActionExample(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Actions)
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "AX42")
	hcl := readExample(t, rescueTF)
	for _, r := range []struct{ pattern, with string }{
		{`(?m)^([ \t]*)hetzner_robot = \{$`, fmt.Sprintf("${0}\n${1}  endpoint = %q\n${1}  ssh_port = %d", m.Endpoint, m.Farm.SSHPort())},
		{`(?m)^(\s*ssh_key\s*=\s*)"[^"]*"$`, fmt.Sprintf("${1}%q", m.KeyFingerprint)},
	} {
		re := regexp.MustCompile(r.pattern)
		if len(re.FindAllString(hcl, -1)) != 1 {
			t.Fatalf("the example has not exactly one line matching %s to point at the test's emulators", r.pattern)
		}
		hcl = re.ReplaceAllString(hcl, r.with)
	}
	// The Hetzner Cloud half runs against the emulator command, whose
	// project holds the keys the example's rescue_ssh_keys names.
	hcl = pointAtEmulator(t, hcl, startEmulator(t)) + `
resource "terraform_data" "exercise" {
  input = [compute_instance.db.id, compute_instance.web.id]
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.compute_instance_rescue.db, action.compute_instance_rescue.web]
    }
  }
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: hcl,
			Check: func(*terraform.State) error {
				if got := mach.Booted(); got != "rescue" {
					return fmt.Errorf("after the action server %d runs %q, not its rescue system", n, got)
				}
				return nil
			},
		}},
	})
}
