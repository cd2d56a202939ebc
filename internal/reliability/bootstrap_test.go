package reliability_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

// The phases of compute_bootstrap_host on Hetzner Robot, the columns of
// its table.
var bootstrapPhases = []string{"claiming", "rescue", "identifying", "installing", "rebooting", "ready"}

// phaseRequest is the webservice request a phase is judged by, on the
// lane's server: the claim (its name written), the reset that boots the
// rescue system, and the reset that boots the installed one, which is the
// server's second.
var phaseRequest = map[string]struct {
	op, path string
	skip     int
}{
	"claiming":  {op: "create", path: "/server/%d"},
	"rescue":    {op: "power", path: "/reset/%d"},
	"rebooting": {op: "power", path: "/reset/%d", skip: 1},
}

// bootstrapBackend is the Robot bootstrap's table; its lanes are run by
// runBootstrap, one Metal per fault and phase.
var bootstrapBackend = &backend{name: "robot-bootstrap", title: "Hetzner Robot: compute_bootstrap_host, by phase", columns: bootstrapPhases}

// hostLane is one fault met in one phase of one bootstrap.
type hostLane struct {
	f       fault
	phase   string
	m       *acctest.Metal
	n       int
	acct    string
	res     string
	foreign machine
	// foreignLook is the foreign server's look when the lane was made.
	foreignLook string
	na          string // why the backend cannot show the fault, "" when it can
}

// bootstrapNA is why a fault cannot meet a phase, "" when it can.
func bootstrapNA(f fault, phase string) string {
	if f.id == "race" && phase != "claiming" {
		return "only the claim takes a server"
	}
	if _, http := phaseRequest[phase]; !http {
		switch f.id {
		case "reset", "hang", "drop":
			return ""
		}
		return "the phase speaks SSH to the machine, not the webservice"
	}
	return ""
}

// notCovered is the cell of a fault the backend can show in a phase but
// the matrix does not drive yet: SSH cut or held in the phases that speak
// SSH, and two states claiming one server at once.
const notCovered = "not covered by the matrix yet"

// runBootstrap runs the bootstrap's lane groups side by side.
func runBootstrap(t *testing.T, res *results) {
	for _, g := range laneGroups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			runHosts(t, g, res)
		})
	}
}

// runHosts bootstraps one server per fault of the group and phase, all in
// one apply, each meeting its fault once in its phase, then reruns the
// apply for those that failed: every host must end ready on its own
// server.
func runHosts(t *testing.T, g laneGroup, res *results) {
	lanes := bootstrapLanes(t, g, res)
	var accounts strings.Builder
	for _, l := range lanes {
		accounts.WriteString(l.m.AccountNamed(l.acct))
	}
	cli := acctest.NewCLI(t, accounts.String())
	g.bound(cli)
	cli.MustRun("apply", "-auto-approve")
	cli.Config(accounts.String() + hostsHCL(lanes))
	cli.MustRun("plan", "-out=step.tfplan")
	for _, l := range lanes {
		l.arm(t)
	}
	start := time.Now()
	_, _ = cli.Run("apply", "step.tfplan")
	t.Logf("bootstrap: terraform apply took %s", time.Since(start).Round(time.Millisecond))
	written := cli.Written()
	outcomes := map[*hostLane]string{}
	rerun := false
	for _, l := range lanes {
		outcomes[l] = l.judge(t, written)
		rerun = rerun || strings.HasPrefix(outcomes[l], "fails")
		l.m.Robot.Conformance().Clear()
	}
	if rerun {
		cli.MustRun("apply", "-auto-approve")
	}
	for _, l := range lanes {
		if strings.HasPrefix(outcomes[l], "fails") {
			outcomes[l] += "; resumed on rerun"
		}
		l.checkReady(t, cli)
		res.set(bootstrapBackend.name, l.f.id, l.phase, outcomes[l])
	}
}

// bootstrapLanes makes a Metal for each fault of the group and phase the
// matrix drives, with the server to bootstrap and a foreign one; it
// records the cells of the others.
func bootstrapLanes(t *testing.T, g laneGroup, res *results) []*hostLane {
	var lanes []*hostLane
	for _, f := range matrixFaults {
		if !g.has(f) {
			continue
		}
		for _, phase := range bootstrapPhases {
			if na := bootstrapNA(f, phase); na != "" {
				res.set(bootstrapBackend.name, f.id, phase, "n/a: "+na)
				continue
			}
			if _, http := phaseRequest[phase]; !http || f.id == "race" {
				res.set(bootstrapBackend.name, f.id, phase, notCovered)
				continue
			}
			m := acctest.NewMetal(t)
			n, _ := m.AddServer(t, "")
			s, err := m.Robot.AddServer(robotemu.ServerSeed{Product: "AX42", Name: foreignName})
			if err != nil {
				t.Fatal(err)
			}
			acct, foreign := "b-"+f.id+"-"+phase, machine{strconv.Itoa(s.Number), foreignName}
			lanes = append(lanes, &hostLane{f: f, phase: phase, m: m, n: n, acct: acct, res: strings.ReplaceAll(acct, "-", "_"),
				foreign: foreign, foreignLook: robotWorld{m: m}.look(foreign.id)})
		}
	}
	return lanes
}

// hostsHCL is a compute_bootstrap_host per lane. The create timeout is far
// beyond what a bootstrap takes even on a loaded machine: a cell judges
// what the provider does about a fault, never how fast the machine runs
// it.
func hostsHCL(lanes []*hostLane) string {
	var hosts strings.Builder
	for _, l := range lanes {
		fmt.Fprintf(&hosts, `
resource "compute_bootstrap_host" %q {
  account    = compute_provider_account.%s.id
  machine_id = "%d"
  hostname   = %q
  image      = "Ubuntu-2404-noble-amd64-base"
  %s
  timeouts {
    create = "5m"
  }
}
`, l.res, l.acct, l.n, l.acct, l.m.FirstBoot())
	}
	return hosts.String()
}

// arm injects the lane's fault on its phase's request.
func (l *hostLane) arm(t *testing.T) {
	t.Helper()
	req := phaseRequest[l.phase]
	class, n := l.f.class, 1
	if l.f.id == "revoked" {
		// Refused from the phase's request on, until the test clears it.
		class, n = "auth_refused", 0
	}
	fm := l.m.Robot.Faults()
	err := l.m.Robot.Conformance().FailNext(req.op, class, n)
	if errors.Is(err, errors.ErrUnsupported) {
		l.na = naReason(err)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	// The rule as Robot answers the class, aimed at this server's request.
	rules := fm.Rules()
	r := rules[len(rules)-1]
	fm.Clear()
	r.Path, r.Skip, r.Count = fmt.Sprintf(req.path, l.n), req.skip, n
	if err := fm.AddRule(r); err != nil {
		t.Fatal(err)
	}
}

// judge is the lane's outcome, from the errors the provider sent that
// name its account; a fault never met fails the test.
func (l *hostLane) judge(t *testing.T, written *acctest.Written) string {
	t.Helper()
	req := phaseRequest[l.phase]
	if l.na != "" {
		return "n/a: " + l.na
	}
	for _, r := range l.m.Robot.Faults().Rules() {
		if r.Count > 0 && r.Path == fmt.Sprintf(req.path, l.n) {
			t.Errorf("%s: the fault on %s %s was never met: %+v", l.acct, r.Method, r.Path, r)
		}
	}
	quoted := fmt.Sprintf("%q", l.acct)
	for _, d := range written.Diagnostics() {
		if d.Severity != tfprotov6.DiagnosticSeverityError || !strings.Contains(d.Summary+d.Detail, quoted) {
			continue
		}
		return outcomeOf(t, l.acct, l.f, d)
	}
	return "retried, ok"
}

// checkReady: the state holds the host ready on the lane's server, the
// server carries the host's claim, and the foreign server is untouched.
func (l *hostLane) checkReady(t *testing.T, cli *acctest.CLI) {
	t.Helper()
	host := readState(t, cli)["compute_bootstrap_host."+l.res]
	if host["phase"] != "ready" || host["machine_id"] != strconv.Itoa(l.n) {
		t.Errorf("%s: the state holds the host in phase %v on machine %v, want ready on %d", l.acct, host["phase"], host["machine_id"], l.n)
	}
	claimed := 0
	for _, s := range l.m.Robot.Servers() {
		if strings.HasPrefix(s.Name, l.acct+"~") {
			claimed++
			if s.Number != l.n {
				t.Errorf("%s: server %d carries the host's claim; only server %d may", l.acct, s.Number, l.n)
			}
		}
	}
	if now := (robotWorld{m: l.m}).look(l.foreign.id); now != l.foreignLook {
		t.Errorf("%s: the server made behind the provider's back was written to; nothing not ours may be touched:\nwas %s\nnow %s", l.acct, l.foreignLook, now)
	}
	if claimed != 1 {
		t.Errorf("%s: %d servers carry the host's claim, want exactly one", l.acct, claimed)
	}
}
