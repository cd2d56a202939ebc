package reliability_test

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// world is one lane's backend: an emulator of its own, reached by this
// lane's account only, so a fault injected there meets this lane's
// operation and no other lane's.
type world interface {
	// provider is the provider block the world needs ("" for none); the
	// first lane's is used, since every world of a backend takes the same
	// secrets.
	provider() string
	account(name string) string
	// instance is compute_instance res on account acct, named name, with
	// extra lines (power, timeouts).
	instance(res, acct, name string, extra ...string) string
	// inject makes the next n requests of the conformance op ("create",
	// "list", "update", "power", "delete", "any") fail as class; an error
	// wrapping errors.ErrUnsupported says the backend cannot show it.
	inject(op, class string, n int) error
	revoke() error
	clear()
	// unmet lists the injected faults no request met.
	unmet() []string
	// machines lists every machine but templates, as id and name.
	machines() []machine
	// look is what a write could change on machine id (its power, labels,
	// configuration, claim), as text to compare: the foreign machine must
	// look the same after every step.
	look(id string) string
}

type machine struct{ id, name string }

// foreignName names the machine every world holds from the start, made
// behind the provider's back: no step may change or delete it.
const foreignName = "ops-owned"

// lane is one fault's row on one backend: its world, its account and its
// instance, which every operation acts on in turn.
type lane struct {
	f       fault
	w       world
	acct    string // the account's resource name and name: "<backend>-<fault>"
	res     string // the instance's resource name
	name    string // the machine's name now
	foreign machine
	// foreignLook is the foreign machine's look when the world was made.
	foreignLook string
	na          string // the current step's reason the fault cannot be shown
	// before is the lane's machine in the backend before the rerun of a
	// failed write.
	before machine
}

// ours is the lane's machines in its backend: named as the instance,
// or, on Robot, carrying its claim after the name.
func (l *lane) ours() []machine {
	var out []machine
	for _, m := range l.w.machines() {
		if m.name == l.name || strings.HasPrefix(m.name, l.name+"~") {
			out = append(out, m)
		}
	}
	return out
}

// named reports whether d names the lane's account or machine, as every
// diagnostic of the provider names one of them.
func (l *lane) named(d *tfprotov6.Diagnostic) bool {
	text := d.Summary + d.Detail
	return strings.Contains(text, fmt.Sprintf("%q", l.acct)) || strings.Contains(text, fmt.Sprintf("%q", l.name))
}

// arm injects the lane's fault for op; it sets l.na when the backend
// cannot show it.
func (l *lane) arm(t *testing.T, op string) {
	t.Helper()
	l.na = ""
	switch l.f.id {
	case "race":
		if op != opCreate {
			l.na = "only a create claims a name"
		}
		return
	case "revoked":
		if err := l.w.revoke(); err != nil {
			t.Fatal(err)
		}
		return
	}
	cop := map[string]string{opCreate: "create", opRefresh: "list", opUpdate: "update", opPower: "power", opOffers: "any", opDelete: "delete"}[op]
	n := 1
	if (op == opRefresh || op == opOffers) && (l.f.class == "reset" || l.f.class == "drop_after_commit") {
		// Go's transport resends a GET whose reused connection closed
		// unanswered once by itself: the second closes it for the provider.
		n = 2
	}
	err := l.w.inject(cop, l.f.class, n)
	if errors.Is(err, errors.ErrUnsupported) {
		l.na = naReason(err)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
}

// naReason is the emulator's own words for what its API cannot show.
var emulatorPrefix = regexp.MustCompile(`^[a-z]+ emulator: `)

func naReason(err error) string {
	s := emulatorPrefix.ReplaceAllString(err.Error(), "")
	return strings.TrimSuffix(s, ": "+errors.ErrUnsupported.Error())
}

// classAtEnd is the class tfdiag puts at the end of an error's detail.
var classAtEnd = regexp.MustCompile(`\(([A-Za-z]+)\)\s*$`)

// judge turns what the provider sent during the step into the lane's
// outcome, and fails the test when a failure does not name its cause or
// a fault that should have been met was not.
func (l *lane) judge(t *testing.T, op string, written *acctest.Written) (outcome string, failed bool) {
	t.Helper()
	var mine []*tfprotov6.Diagnostic
	for _, d := range written.Diagnostics() {
		if d.Severity == tfprotov6.DiagnosticSeverityError && l.named(d) {
			mine = append(mine, d)
		}
		// A refresh is only planned, never saved, so the state file
		// cannot show a machine a fault made read as absent: the warning
		// the read gives then is the one sign of it.
		if d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == "Instance is gone" && l.named(d) && l.f.id != "race" {
			t.Errorf("%s %s: a fault made the machine read as gone, which only the backend's proof of absence may: %s", l.acct, op, d.Detail)
		}
	}
	if left := l.w.unmet(); len(left) > 0 && l.f.id != "revoked" {
		t.Errorf("%s %s: the fault was never met, so the cell would pass without it: %v", l.acct, op, left)
	}
	if len(mine) == 0 {
		if l.f.id == "race" {
			return "second create adopts the first's machine; the first state is told, and its destroy leaves it", false
		}
		return "retried, ok", false
	}
	return outcomeOf(t, l.acct+" "+op, l.f, mine[0]), true
}

// outcomeOf is the cell of a failure whose diagnostic d the provider sent
// for who (a lane, and its step). It fails the test when d does not end
// naming one of the fault's causes, and when a request went unanswered on
// a lane whose fault is not the hang: only the hang lanes run with a short
// request bound, so there the machine was too slow for the production
// bound, and the cell would say so instead of what the fault does.
func outcomeOf(t *testing.T, who string, f fault, d *tfprotov6.Diagnostic) string {
	t.Helper()
	t.Logf("%s: %s: %s", who, d.Summary, d.Detail)
	m := classAtEnd.FindStringSubmatch(d.Detail)
	if m == nil || !slices.Contains(f.causes, adapter.Code(m[1])) {
		t.Errorf("%s: the diagnostic %q does not end naming the cause as one of %v:\n%s", who, d.Summary, f.causes, d.Detail)
		return "fails"
	}
	if strings.Contains(d.Detail, "never answered") {
		if f.class != "hang" {
			t.Errorf("%s: a request went unanswered for the provider's production bound, although the fault is %q, not a hang: "+
				"the machine was too slow to answer within it, and the cell would not show what the fault does:\n%s", who, f.title, d.Detail)
		}
		// A Transient the provider did not retry until the timeout: the
		// request went unanswered, and the detail names the endpoint.
		return "fails: names the silent endpoint"
	}
	return "fails: " + causeWords[adapter.Code(m[1])]
}

// causeWords say, in a cell, what a failure's diagnostic names.
var causeWords = map[adapter.Code]string{
	adapter.Transient:    "names what was retried",
	adapter.RateLimited:  "names the rate limit",
	adapter.AccessDenied: "names the refused credentials",
	adapter.Conflict:     "names the other state's machine",
	adapter.InvalidState: "names the lock",
}

// checkHeld checks the lane after a step: with want set, exactly one
// machine of the lane's in the backend, the one the state holds under its
// name; without, none in either. The foreign machine is there, and no
// write changed it.
func (l *lane) checkHeld(t *testing.T, st map[string]stateInstance, want bool) {
	t.Helper()
	ours := l.ours()
	si, inState := st[l.res]
	switch {
	case want && len(ours) != 1:
		t.Errorf("%s: the backend holds %d machines for %q, want exactly one: %v", l.acct, len(ours), l.name, ours)
	case want && !inState:
		t.Errorf("%s: the state holds no %s, the backend holds %v", l.acct, l.res, ours)
	case want && (si.id != ours[0].id || si.name != l.name):
		t.Errorf("%s: the state holds %s as %s %q, the backend has %s %q", l.acct, l.res, si.id, si.name, ours[0].id, ours[0].name)
	case !want && (len(ours) != 0 || inState):
		t.Errorf("%s: after delete the backend still holds %v and the state %v", l.acct, ours, inState)
	}
	if !slices.Contains(l.w.machines(), l.foreign) {
		t.Errorf("%s: the machine %v made behind the provider's back changed or went; nothing not ours may be touched: %v", l.acct, l.foreign, l.w.machines())
	}
	if now := l.w.look(l.foreign.id); now != l.foreignLook {
		t.Errorf("%s: the machine %v made behind the provider's back was written to; nothing not ours may be touched:\nwas %s\nnow %s", l.acct, l.foreign, l.foreignLook, now)
	}
}
