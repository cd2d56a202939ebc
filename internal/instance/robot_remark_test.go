package instance_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestRobotRenamedByHandIsDrift: a Robot server renamed by hand loses the
// claim mark in its name. The plan warns, naming the server, its new name
// and what the next apply does, and plans an in-place update (no replace,
// no destroy); the apply writes the name back with the state's claim and
// sends nothing to the server over SSH; the plan after it is empty.
func TestRobotRenamedByHandIsDrift(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "AX42")
	c := acctest.NewCLI(t, robotInstance(m, "web-1"))
	c.MustRun("apply", "-auto-approve")
	emptyPlan(t, c)
	objects := rawInstances(t, localState(c))
	if len(objects) != 1 || objects[0].Claim == "" {
		t.Fatalf("the state holds %+v, want one instance with a claim", objects)
	}
	claim := objects[0].Claim

	if err := m.Robot.Rename(n, "web-1 (ops)"); err != nil {
		t.Fatal(err)
	}
	out, err := c.Run("plan", "-input=false")
	warning := acctest.Match(fmt.Sprintf(`Warning: Instance lost its claim mark.*Machine %d \("web-1"\) on account "[^"]+" \(hetzner_robot at [^)]+\).* its name at the backend is now "web-1 \(ops\)".*The next terraform apply writes the name "web-1" back with the mark and this state's claim`, n))
	if err != nil || !warning.MatchString(out) || !strings.Contains(out, "0 to add, 1 to change, 0 to destroy") {
		t.Fatalf("the plan after the rename: %v, want the warning and an in-place update:\n%s", err, out)
	}
	c.MustRun("apply", "-auto-approve")
	s, _ := m.Server(n)
	if want := regexp.MustCompile(`^web-1~cm~` + claim + `~[0-9a-f]{8}~e$`); !want.MatchString(s.Name) {
		t.Fatalf("after the apply server %d is named %q, want web-1 with this state's claim %s, confirmed", n, s.Name, claim)
	}
	if cmds := mach.Commands(); len(cmds) != 0 {
		t.Errorf("writing the claim back ran %d SSH commands on the server (%q…)", len(cmds), cmds[0].Line)
	}
	emptyPlan(t, c)
	c.MustRun("destroy", "-auto-approve")
	if err := m.CheckReleased(n, "")(nil); err != nil {
		t.Error(err)
	}
}
