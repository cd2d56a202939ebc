package reliability_test

import (
	"errors"
	"os/exec"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// rival is the second Terraform state of the race lane: the same account
// and instance in a working directory of its own, as a second CI job or a
// colleague's checkout would hold them.
type rival struct {
	cli *acctest.CLI
	l   *lane
	id  string
}

// race runs the rival's create to its end after the lane planned its own
// and before it applies that plan: the lane's create meets a name another
// state has just taken. This is not two creates reaching the backend at
// the same moment, and the guide says so.
func (r *run) race(l *lane) *rival {
	r.t.Helper()
	c := acctest.NewCLI(r.t, l.w.provider()+l.w.account(l.acct)+l.w.instance(l.res, l.acct, l.name, r.be.powerBase, `shutdown_timeout = "10s"`, cellTimeouts))
	c.MustRun("apply", "-auto-approve")
	ours := l.ours()
	if len(ours) != 1 {
		r.t.Fatalf("%s: the rival's create left %v", l.acct, ours)
	}
	return &rival{cli: c, l: l, id: ours[0].id}
}

// check: the lane's state took the rival's machine (no second one); the
// rival's next plan tells it, naming the account; its destroy leaves the
// machine to the state that holds it.
func (rv *rival) check(t *testing.T) {
	t.Helper()
	if ours := rv.l.ours(); len(ours) != 1 || ours[0].id != rv.id {
		t.Errorf("%s: after the race the backend holds %v, want only the rival's machine %s", rv.l.acct, ours, rv.id)
	}
	out, _ := rv.cli.Run("plan")
	told := false
	for _, d := range rv.cli.Written().Diagnostics() {
		told = told || rv.l.named(d)
	}
	if !told {
		t.Errorf("%s: the state that lost the race was not told by the provider at its next plan:\n%s", rv.l.acct, out)
	}
	rv.cli.MustRun("destroy", "-auto-approve")
	if ours := rv.l.ours(); len(ours) != 1 || ours[0].id != rv.id {
		t.Errorf("%s: the losing state's destroy touched the machine the other state holds: the backend holds %v", rv.l.acct, ours)
	}
}

// exitCode is the exit status of a terraform command that failed.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
