package bootstrap_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/sshhost"
)

// TestRobotRenamedByHandIsDrift: the server of a ready host is renamed by
// hand, losing the claim mark in its name. The plan warns, naming the
// server, its new name and what the next apply does, and plans an in-place
// update; the apply writes the hostname back with the mark and the state's
// claim, installing nothing; the plan after it is empty, and destroy
// releases the server.
func TestRobotRenamedByHandIsDrift(t *testing.T) {
	t.Parallel()
	m, n, mach, c := plannedHost(t)
	s, _ := m.Server(n)
	claim := regexp.MustCompile(`^db-1~cm~([0-9a-f]{32})~[0-9a-f]{8}~e$`).FindStringSubmatch(s.Name)
	if claim == nil {
		t.Fatalf("server %d is named %q, want db-1 claimed and confirmed", n, s.Name)
	}
	installs := mach.Installs()

	if err := m.Robot.Rename(n, "db-1-old"); err != nil {
		t.Fatal(err)
	}
	out, err := c.Run("plan", "-input=false")
	warning := acctest.Match(fmt.Sprintf(`Warning: Bootstrap host lost its claim mark.*Server %d \(host "db-1"\) on account "[^"]+" \(hetzner_robot at [^)]+\).* its name at the backend is now "db-1-old".*The next terraform apply writes the name "db-1" back with the mark and this state's claim, and installs nothing`, n))
	if err != nil || !warning.MatchString(out) || !strings.Contains(out, "0 to add, 1 to change, 0 to destroy") {
		t.Fatalf("the plan after the rename: %v, want the warning and an in-place update:\n%s", err, out)
	}
	c.MustRun("apply", "-auto-approve")
	if s, _ := m.Server(n); !strings.HasPrefix(s.Name, "db-1~cm~"+claim[1]+"~") || !strings.HasSuffix(s.Name, "~n") && !strings.HasSuffix(s.Name, "~e") {
		t.Fatalf("after the apply server %d is named %q, want db-1 with this state's claim %s, confirmed", n, s.Name, claim[1])
	}
	if got := mach.Installs(); got != installs {
		t.Errorf("writing the claim back installed the server again (%d installs, was %d)", got, installs)
	}
	if out, err := c.Run("plan", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after writing the claim back is not empty (%v):\n%s", err, out)
	}
	c.MustRun("destroy", "-auto-approve")
	if s, _ := m.Server(n); strings.Contains(s.Name, "~cm~") {
		t.Errorf("destroy left server %d named %q", n, s.Name)
	}
}

// TestRobotSecondStateRefused: a new workspace with the same host (account,
// hostname and machine_id) is refused once the holder planned, before
// anything is written: the server keeps its name and its install, and the
// holder plans clean.
func TestRobotSecondStateRefused(t *testing.T) {
	t.Parallel()
	m, n, mach, c := plannedHost(t)
	held, _ := m.Server(n)
	installs := mach.Installs()

	c.MustRun("workspace", "new", "staging")
	out, err := c.Run("apply", "-auto-approve", "-input=false")
	if err == nil || !acctest.Match(fmt.Sprintf(`machine %d \("db-1"\) on account "[^"]+" \(hetzner_robot at [^)]+\) already carries this resource's key.*nothing was written`, n)).MatchString(out) {
		t.Fatalf("the second workspace's apply: %v, want the Conflict naming server %d:\n%s", err, n, out)
	}
	c.MustRun("destroy", "-auto-approve")
	if now, _ := m.Server(n); now.Name != held.Name || mach.Installs() != installs {
		t.Fatalf("the second workspace touched server %d: name %q (was %q), %d installs (was %d)", n, now.Name, held.Name, mach.Installs(), installs)
	}
	c.MustRun("workspace", "select", "default")
	if out, err := c.Run("plan", "-detailed-exitcode"); err != nil {
		t.Fatalf("the holder's plan is not empty (%v):\n%s", err, out)
	}
	c.MustRun("destroy", "-auto-approve")
}

// plannedHost is a host bootstrapped on a server of its own by machine_id,
// applied and planned once since, so its claim is confirmed.
func plannedHost(t *testing.T) (*acctest.Metal, int, *sshhost.Machine, *acctest.CLI) {
	t.Helper()
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
	c := acctest.NewCLI(t, robotHost(m, nil, fmt.Sprintf(`machine_id = "%d"`, n)))
	c.MustRun("apply", "-auto-approve")
	if out, err := c.Run("plan", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after the apply is not empty (%v):\n%s", err, out)
	}
	return m, n, mach, c
}
