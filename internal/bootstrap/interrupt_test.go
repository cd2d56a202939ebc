package bootstrap_test

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/sshhost"
)

// killMatrixEnv, set to 1, runs every kill point; by default a subset
// runs (one early point, one while installimage runs, one in the reboot),
// since each point costs four terraform runs per backend.
const killMatrixEnv = "COMPUTE_TEST_KILL_MATRIX"

// hostKillPoint is one moment of a bootstrap at which the test kills
// terraform: arm places a hold on the emulators that keeps the apply
// there and returns what tells that it is there; afterKill, when set,
// prepares the rerun (and later reports what it saw).
type hostKillPoint struct {
	name      string
	byDefault bool
	arm       func(t *testing.T, f *robotFarm) (reached func() bool)
	// beyond tells, right after the kill, that the apply had gone past
	// the point: the kill did not land where the point says.
	beyond    func(f *robotFarm) bool
	afterKill func(t *testing.T, f *robotFarm) (check func())
}

func closed(ch <-chan struct{}) func() bool {
	return func() bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
}

// holdRobot holds the Robot calls of method on path (after skip of them
// passed) once they committed, until their client is gone.
func holdRobot(t *testing.T, f *robotFarm, method, path string, skip int) {
	t.Helper()
	if err := f.robot.Faults().AddRule(faults.Rule{Method: method, Path: path, Skip: skip, CommitThenDelay: faults.Duration(time.Hour)}); err != nil {
		t.Fatal(err)
	}
}

func line(l string) func(sshhost.Command) bool {
	return func(c sshhost.Command) bool { return c.Line == l }
}

var hostKillPoints = []hostKillPoint{
	{
		name: "claiming", byDefault: true,
		// The rename that writes the claim mark committed, its answer
		// held: the machine is claimed and nothing knows it.
		arm: func(t *testing.T, f *robotFarm) func() bool {
			holdRobot(t, f, "POST", "/server/{id}", 0)
			return func() bool { return len(f.claimed()) == 1 }
		},
		beyond: func(f *robotFarm) bool { return f.robot.Stats()["GET /boot/{id}/rescue"] > 0 },
	},
	{
		name: "rescue",
		// Rescue armed and the hardware reset delivered, its answer held.
		arm: func(t *testing.T, f *robotFarm) func() bool {
			holdRobot(t, f, "POST", "/reset/{id}", 0)
			return func() bool { return f.robot.Stats()["POST /reset/{id}"] >= 1 }
		},
		beyond: ran(func(c sshhost.Command) bool { return c.Line == "dmidecode -s system-uuid" }),
	},
	{
		name: "identifying",
		arm: func(t *testing.T, f *robotFarm) func() bool {
			reached, _ := f.holdCommand(line("dmidecode -s system-uuid"))
			return closed(reached)
		},
		beyond: ran(line("lsblk -dn -o NAME,TRAN")),
	},
	{
		name: "installing, the first file delivered",
		arm: func(t *testing.T, f *robotFarm) func() bool {
			reached, _ := f.holdCommand(func(c sshhost.Command) bool { return strings.HasSuffix(c.Line, "cat > /root/compute/files/0") })
			return closed(reached)
		},
		beyond: ran(func(c sshhost.Command) bool { return strings.HasPrefix(c.Line, "setsid -f ") }),
	},
	{
		name: "installing, installimage running", byDefault: true,
		arm: func(t *testing.T, f *robotFarm) func() bool {
			f.gate.hold()
			return func() bool { m := f.claimedMachine(); return m != nil && m.InstallRunning() }
		},
		beyond: func(f *robotFarm) bool { return f.robot.Stats()["POST /reset/{id}"] > 1 },
		// The install goes on after the kill; the rerun must find it
		// running and wait for it, and only then is it let finish.
		afterKill: func(t *testing.T, f *robotFarm) func() {
			var saw atomic.Bool
			f.watch(func(c sshhost.Command) {
				switch {
				case c.Line == "test -e /root/compute/install.log" && c.Exit == 0 && f.claimedMachine().InstallRunning():
					saw.Store(true)
					f.gate.release()
				case strings.HasPrefix(c.Line, "setsid -f "):
					// A rerun that starts an install of its own: let both
					// end, so the count tells instead of a timeout.
					f.gate.release()
				}
			})
			return func() {
				if !saw.Load() {
					t.Error("the rerun never found the install of the killed apply running")
				}
			}
		},
	},
	{
		name: "rebooting", byDefault: true,
		// The software reset into the installed system (the second reset)
		// delivered, its answer held.
		arm: func(t *testing.T, f *robotFarm) func() bool {
			holdRobot(t, f, "POST", "/reset/{id}", 1)
			return func() bool { return f.robot.Stats()["POST /reset/{id}"] >= 2 }
		},
		beyond: ran(func(c sshhost.Command) bool { return c.System == "installed" }),
	},
	{
		name: "ready-waiting",
		arm: func(t *testing.T, f *robotFarm) func() bool {
			reached, _ := f.holdCommand(func(c sshhost.Command) bool {
				return c.System == "installed" && strings.HasPrefix(c.Line, "systemctl show")
			})
			return closed(reached)
		},
		beyond: func(f *robotFarm) bool {
			n := 0
			for _, c := range f.farm.Commands() {
				if c.System == "installed" && strings.HasPrefix(c.Line, "systemctl show") {
					n++
				}
			}
			return n > 1
		},
	},
}

// ran tells whether the farm ran a command that match accepts.
func ran(match func(sshhost.Command) bool) func(*robotFarm) bool {
	return func(f *robotFarm) bool { return slices.ContainsFunc(f.farm.Commands(), match) }
}

// TestKilledBootstrapRerunsClean kills terraform apply of a
// compute_bootstrap_host with SIGKILL (terraform and its provider plugin
// at once) in each phase, with the local backend and an http backend on
// loopback; neither has saved the host when the kill lands (Terraform
// writes a resource once its create returns, a remote backend even
// later), so the rerun starts with no state of it. The rerun claims the
// same machine again by its key, installs at most once in all, ends ready;
// the next plan is empty and destroy releases the machine.
func TestKilledBootstrapRerunsClean(t *testing.T) {
	t.Parallel()
	all := os.Getenv(killMatrixEnv) == "1"
	for _, backend := range []string{"local", "http"} {
		for _, point := range hostKillPoints {
			if !point.byDefault && !all {
				continue
			}
			t.Run(backend+"/"+point.name, func(t *testing.T) {
				t.Parallel()
				killAndRerun(t, backend, point)
			})
		}
	}
}

func killAndRerun(t *testing.T, backend string, point hostKillPoint) {
	start := time.Now()
	f := newRobotFarm(t, 3)
	var remote *acctest.StateBackend
	block := ""
	if backend == "http" {
		remote = acctest.NewStateBackend(t)
		block = remote.Block()
	}
	c := f.cli(block)
	c.Write("host.tf", f.config())
	state := func() []byte {
		if remote != nil {
			return remote.State()
		}
		return []byte(c.Read("terraform.tfstate"))
	}

	reached := point.arm(t, f)
	p := c.Start("apply", "-auto-approve", "-input=false")
	p.WaitFor("phase "+point.name, reached)
	p.Kill()
	killedAt := time.Since(start)
	if point.beyond(f) {
		t.Fatalf("the apply had gone past %s when it was killed; the test no longer covers that phase", point.name)
	}
	if hosts := hostsIn(t, state()); len(hosts) != 0 {
		t.Fatalf("the state holds the host after the kill (%v): the rerun would not start from nothing, and the test no longer covers the loss", hosts)
	}
	f.robot.Faults().Clear()
	f.watch(nil)
	check := func() {}
	if point.afterKill != nil {
		check = point.afterKill(t, f)
	}

	rerun := time.Now()
	out := c.MustRun("apply", "-auto-approve", "-input=false")
	rerunTook := time.Since(rerun)
	check()
	if !strings.Contains(out, "Machine claimed again") {
		t.Errorf("the rerun did not claim the machine again by its key:\n%s", out)
	}
	claimed := f.claimed()
	if len(claimed) != 1 || !strings.HasPrefix(claimed[0].Name, "db-1~cm~") {
		t.Fatalf("servers carrying a claim after the rerun: %+v, want exactly one for db-1", claimed)
	}
	for _, route := range []string{"POST /order/server/transaction", "POST /order/server_market/transaction"} {
		if n := f.robot.Stats()[route]; n != 0 {
			t.Errorf("%s: %d orders placed, want none (free servers were rented)", route, n)
		}
	}
	if n := f.installs(); n != 1 {
		t.Errorf("%d installs in all, want 1: the rerun did not see what the killed apply installed", n)
	}
	hosts := hostsIn(t, state())
	if len(hosts) != 1 || hosts[0]["phase"] != "ready" || hosts[0]["machine_id"] != strconv.Itoa(claimed[0].Number) {
		t.Errorf("the state after the rerun holds %v, want one host in phase ready on machine %d", hosts, claimed[0].Number)
	}
	f.noSecrets(string(state()), p.Output(), out)
	if out, err := c.Run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Errorf("the plan after the rerun is not empty (%v):\n%s", err, out)
	}
	c.MustRun("destroy", "-auto-approve", "-input=false")
	for _, s := range f.robot.Servers() {
		if s.Name != "" {
			t.Errorf("server %d is named %q after destroy, want it released to \"\"", s.Number, s.Name)
		}
	}
	if t.Failed() {
		t.Logf("the rerun printed:\n%s", out)
	}
	t.Logf("killed %s after start; rerun took %s; whole case %s", killedAt.Round(time.Millisecond),
		rerunTook.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// hostsIn returns the attributes of every compute_bootstrap_host in a raw
// state; an empty or absent state holds none.
func hostsIn(t *testing.T, raw []byte) []map[string]any {
	t.Helper()
	if len(strings.TrimSpace(string(raw))) == 0 {
		return nil
	}
	var st struct {
		Resources []struct {
			Type      string
			Instances []struct{ Attributes map[string]any }
		}
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatalf("read state: %v", err)
	}
	var out []map[string]any
	for _, r := range st.Resources {
		if r.Type == "compute_bootstrap_host" {
			for _, i := range r.Instances {
				out = append(out, i.Attributes)
			}
		}
	}
	return out
}
