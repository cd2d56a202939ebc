package reliability_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// backend is one adapter's part of the matrix.
type backend struct {
	name, title string
	// newWorld starts one lane's emulators, with the foreign machine and
	// whatever a create needs (Robot: a free server to claim).
	newWorld func(t *testing.T) (world, machine)
	// powerOp is the line of the power step: power = "off" where the
	// backend switches a machine off, a restart where it can only reset;
	// powerBase is the line it replaces.
	powerBase, powerOp string
	// columns replace the operations as the table's columns.
	columns []string
}

func (b *backend) ops() []string {
	if b.columns != nil {
		return b.columns
	}
	return matrixOps
}

// backends are the adapters whose instances the matrix covers; tables
// are every table of the guide, in its order.
var (
	backends = []*backend{hcloudBackend, robotBackend, proxmoxBackend}
	tables   = []*backend{hcloudBackend, robotBackend, bootstrapBackend, proxmoxBackend}
)

// cellTimeouts bound every operation of a lane's instance. They are far
// beyond what an operation takes even on a loaded machine: a cell judges
// what the provider does about a fault, never how fast the machine runs
// it. Each fault is met once, so a retry that succeeds costs nothing
// extra.
const cellTimeouts = `timeouts {
    create = "5m"
    read   = "5m"
    update = "5m"
    delete = "5m"
  }`

// hangBound is the request bound of the provider that runs the hang
// lanes: a request the emulator holds until its client leaves costs this
// long, not the adapters' production bound of a minute.
const hangBound = 5 * time.Second

// laneGroup is the lanes that share one terraform working directory, and
// so one provider and its request bound: the hang lanes, whose provider
// gives up on a request after hangBound, and every other, whose provider
// keeps the production bound, so that no answer a busy machine is slow to
// give reads as a hang there.
type laneGroup struct {
	name string
	hang bool
}

var laneGroups = []laneGroup{{name: "hang", hang: true}, {name: "answered"}}

// has reports whether fault f's lanes are the group's.
func (g laneGroup) has(f fault) bool { return (f.class == "hang") == g.hang }

// bound gives the group's provider its request bound.
func (g laneGroup) bound(cli *acctest.CLI) {
	if g.hang {
		cli.SetRequestTimeout(hangBound)
	}
}

// stage is what the configuration holds at one step.
type stage struct {
	suffix    string // the machine names' suffix
	power     bool   // whether the power step's line is in
	offers    bool
	instances bool
}

// run is one backend's lanes and the terraform working directory they
// share.
type run struct {
	t     *testing.T
	be    *backend
	lanes []*lane
	cli   *acctest.CLI
	res   *results
	st    stage
}

func (r *run) config() string {
	var b strings.Builder
	b.WriteString(r.lanes[0].w.provider())
	for _, l := range r.lanes {
		b.WriteString(l.w.account(l.acct))
		if r.st.instances {
			l.name = l.acct + "-" + r.st.suffix
			power := r.be.powerBase
			if r.st.power {
				power = r.be.powerOp
			}
			b.WriteString(l.w.instance(l.res, l.acct, l.name, power, `shutdown_timeout = "10s"`, cellTimeouts))
		}
		if r.st.offers {
			fmt.Fprintf(&b, "\ndata \"compute_offers\" %q {\n  accounts = [compute_provider_account.%s.id]\n}\n", l.res, l.acct)
		}
	}
	return b.String()
}

// runBackend runs the backend's lane groups side by side.
func runBackend(t *testing.T, be *backend, res *results) {
	for _, g := range laneGroups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			runLanes(t, be, g, res)
		})
	}
}

// runLanes starts one world per fault of the group and runs the
// operations in turn, every lane's in the same terraform command.
func runLanes(t *testing.T, be *backend, g laneGroup, res *results) {
	r := &run{t: t, be: be, res: res, st: stage{suffix: "a", instances: true}}
	for _, f := range matrixFaults {
		if !g.has(f) {
			continue
		}
		w, foreign := be.newWorld(t)
		acct := be.name + "-" + f.id
		r.lanes = append(r.lanes, &lane{f: f, w: w, acct: acct, res: strings.ReplaceAll(acct, "-", "_"), foreign: foreign, foreignLook: w.look(foreign.id)})
	}
	r.cli = acctest.NewCLI(t, r.config())
	g.bound(r.cli)

	// The accounts first, so that every fault meets a run in which the
	// account is already known, as on a real second apply.
	r.st.instances = false
	r.cli.Config(r.config())
	r.cli.MustRun("apply", "-auto-approve")

	r.st.instances = true
	r.step(opCreate, true)
	r.step(opRefresh, false)
	r.st.suffix = "b"
	r.step(opUpdate, true)
	r.st.power = true
	r.step(opPower, true)
	r.st.offers = true
	r.step(opOffers, false)
	r.st.offers, r.st.instances = false, false
	r.step(opDelete, true)
}

// step writes the stage's configuration and runs op on every lane at
// once. A step that writes (apply) plans first with no fault armed and
// arms every lane's fault between the plan and the apply of that plan, as
// a backend that fails mid-run does, so that a fault a lane's plan would
// meet cannot stop every other lane's apply; a step that reads (plan)
// arms them first. Then it judges each lane, clears the faults and, after
// a failed write, runs apply again: the rerun a user would. Then every
// lane must hold exactly what its configuration says.
func (r *run) step(op string, write bool) {
	r.t.Helper()
	r.cli.Config(r.config())
	args := []string{"plan", "-detailed-exitcode"}
	if op == opOffers {
		args = []string{"plan", "-refresh=false"}
	}
	if write {
		r.cli.MustRun("plan", "-out=step.tfplan")
		args = []string{"apply", "step.tfplan"}
	}
	race := r.armAll(op)
	start := time.Now()
	out, runErr := r.cli.Run(args...)
	r.t.Logf("%s: terraform %s took %s", op, args[0], time.Since(start).Round(time.Millisecond))
	outcomes, anyFailed := r.judgeAll(op, write)
	if anyFailed && runErr == nil && op != opRefresh {
		r.t.Errorf("%s: a lane's diagnostic is an error, yet terraform succeeded:\n%s", op, out)
	}
	if !anyFailed && runErr != nil && !(op == opRefresh && exitCode(runErr) == 2) {
		r.t.Errorf("%s: terraform failed with no lane's error naming its account: %v\n%s", op, runErr, out)
	}
	for _, l := range r.lanes {
		l.w.clear()
	}
	if write && anyFailed {
		r.rerunFailed(op, outcomes)
	}
	r.checkAll(op, outcomes)
	if race != nil {
		race.check(r.t)
	}
}

// armAll arms every lane's fault for op, and brings in the race lane's
// rival for a create.
func (r *run) armAll(op string) *rival {
	var race *rival
	for _, l := range r.lanes {
		l.arm(r.t, op)
		if l.f.id == "race" && op == opCreate {
			race = r.race(l)
		}
	}
	return race
}

// judgeAll is every lane's outcome of the step; after a failed write it
// notes the lane's machine, for the rerun's words.
func (r *run) judgeAll(op string, write bool) (outcomes map[*lane]string, anyFailed bool) {
	written := r.cli.Written()
	outcomes = map[*lane]string{}
	for _, l := range r.lanes {
		if l.na != "" {
			outcomes[l] = "n/a: " + l.na
			continue
		}
		o, failed := l.judge(r.t, op, written)
		outcomes[l] = o
		anyFailed = anyFailed || failed
		if failed && write {
			l.before = machine{}
			if ours := l.ours(); len(ours) == 1 {
				l.before = ours[0]
			}
		}
	}
	return outcomes, anyFailed
}

// rerunFailed runs apply again, as a user would after a failed run, and
// adds to each failed cell what the rerun did.
func (r *run) rerunFailed(op string, outcomes map[*lane]string) {
	r.cli.MustRun("apply", "-auto-approve")
	for _, l := range r.lanes {
		if strings.HasPrefix(outcomes[l], "fails") {
			outcomes[l] += "; " + l.rerunWords(op)
		}
	}
}

// checkAll checks every lane against the state and records its cell.
func (r *run) checkAll(op string, outcomes map[*lane]string) {
	st := r.state()
	for _, l := range r.lanes {
		l.checkHeld(r.t, st, r.st.instances)
		r.res.set(r.be.name, l.f.id, op, outcomes[l])
	}
}

// rerunWords says what the rerun did with the lane's machine.
func (l *lane) rerunWords(op string) string {
	ours := l.ours()
	switch {
	case op != opCreate:
		return "rerun ok"
	case l.before.id == "":
		return "created on rerun"
	case len(ours) == 1 && ours[0].id == l.before.id:
		return "adopted on rerun"
	}
	return "replaced on rerun"
}

// stateInstance is an instance as the state holds it.
type stateInstance struct{ id, name string }

// state reads the compute_instance resources of the state.
func (r *run) state() map[string]stateInstance {
	r.t.Helper()
	st := map[string]stateInstance{}
	for addr, a := range readState(r.t, r.cli) {
		if name, ok := strings.CutPrefix(addr, "compute_instance."); ok {
			st[name] = stateInstance{id: fmt.Sprint(a["id"]), name: fmt.Sprint(a["name"])}
		}
	}
	return st
}

// readState reads the managed resources of the CLI's state file, as
// terraform wrote it (version 4 of its format), by address, without
// another terraform command.
func readState(t *testing.T, cli *acctest.CLI) map[string]map[string]any {
	t.Helper()
	var doc struct {
		Resources []struct {
			Mode      string `json:"mode"`
			Type      string `json:"type"`
			Name      string `json:"name"`
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	text := cli.Read("terraform.tfstate")
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("terraform.tfstate: %v\n%s", err, text)
	}
	st := map[string]map[string]any{}
	for _, res := range doc.Resources {
		if res.Mode == "managed" && len(res.Instances) == 1 {
			st[res.Type+"."+res.Name] = res.Instances[0].Attributes
		}
	}
	return st
}
