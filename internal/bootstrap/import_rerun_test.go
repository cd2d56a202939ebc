package bootstrap_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestRobotHostImportApplyKilledAfterTheMarkIsRerun: the first apply after
// an import writes the mark, a claim in the server's name. Killed after that
// write and before its state was saved, it leaves the state with the
// imported host and no claim, and the server with one. The rerun plans the
// adoption again without calling the host another state's, takes up the
// claim, installs nothing, and the plan after it is empty. The kill is made
// exact by putting back the state saved before that apply.
func TestRobotHostImportApplyKilledAfterTheMarkIsRerun(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
	c, _ := importedHost(t, m, n)
	imported := c.Read("terraform.tfstate")
	c.MustRun("apply", "-auto-approve")
	c.Write("terraform.tfstate", imported)

	out, err := c.Run("plan", "-detailed-exitcode")
	if strings.Contains(out, "held by another state") {
		t.Fatalf("the rerun's plan (%v) calls the host another state's:\n%s", err, out)
	}
	c.MustRun("apply", "-auto-approve")
	if out, err := c.Run("plan", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after the rerun is not empty (%v):\n%s", err, out)
	}
	srv, _ := m.Server(n)
	claim := stateClaim(t, c.Read("terraform.tfstate"))
	if claim == "" || !strings.Contains(srv.Name, claim) {
		t.Errorf("the state's claim %q is not the one server %d carries (named %q)", claim, n, srv.Name)
	}
	if got := mach.Installs(); got != 0 {
		t.Errorf("the imported host was installed %d times, want none", got)
	}
}

// stateClaim is the claim of the one bootstrap host in a state file.
func stateClaim(t *testing.T, state string) string {
	t.Helper()
	var st struct {
		Resources []struct {
			Type      string
			Instances []struct {
				Attributes struct {
					Claim string `json:"claim"`
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(state), &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Resources {
		if r.Type == "compute_bootstrap_host" && len(r.Instances) == 1 {
			return r.Instances[0].Attributes.Claim
		}
	}
	t.Fatalf("no compute_bootstrap_host in the state:\n%s", state)
	return ""
}

// TestRobotHostImportedTwiceIsNotShared: two states import the same rented
// server and the first applies, marking it with its claim. The second, whose
// configuration names the host otherwise, is refused at apply as the host
// of another state, rather than taking the first state's claim as its own
// (both would then release or reinstall it), and its destroy neither
// releases the server nor forgets it.
func TestRobotHostImportedTwiceIsNotShared(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
	first, id := importedHost(t, m, n)
	second := acctest.NewCLI(t, otherHost(m, n))
	second.MustRun("import", addr, id)
	first.MustRun("apply", "-auto-approve")
	before, _ := m.Server(n)

	out, err := second.Run("apply", "-auto-approve")
	if err == nil || !strings.Contains(strings.Join(strings.Fields(out), " "), "held by another Terraform state") {
		t.Fatalf("the second state's apply (%v) did not refuse the first state's host:\n%s", err, out)
	}
	if out, err := second.Run("destroy", "-auto-approve"); err == nil {
		t.Errorf("the second state's destroy went through:\n%s", out)
	}
	after, _ := m.Server(n)
	if after.Name != before.Name {
		t.Errorf("server %d was renamed from %q to %q by the state that does not hold it", n, before.Name, after.Name)
	}
	if claim := stateClaim(t, first.Read("terraform.tfstate")); claim == "" || !strings.Contains(after.Name, claim) {
		t.Errorf("the first state's claim %q is not on server %d (named %q)", claim, n, after.Name)
	}
	if got := mach.Installs(); got != 0 {
		t.Errorf("the imported host was installed %d times, want none", got)
	}
}

// TestRobotHostImportOfAFreshClaimWarns: a server another state imported
// and marked within the hour carries a claim no state has confirmed. A
// second state's import takes it, as an import does, and warns that the two
// states now hold one server, rather than saying nothing (it never warned
// before, not even of a confirmed claim).
func TestRobotHostImportOfAFreshClaimWarns(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, _ := m.AddServer(t, "")
	first, id := importedHost(t, m, n)
	first.MustRun("apply", "-auto-approve")
	second := acctest.NewCLI(t, otherHost(m, n))
	out := second.MustRun("import", addr, id)
	block := strings.Join(strings.Fields(acctest.Diagnostic(out, "Warning: Imported machine may be held by another state")), " ")
	for _, want := range []string{"a claim no state has confirmed yet", "both states hold it", "terraform state rm"} {
		if !strings.Contains(block, want) {
			t.Errorf("the import's warning lacks %q:\n%s", want, out)
		}
	}
}

// importedHost is a configuration of host db-1 on server n that has
// imported it, and the import id.
func importedHost(t *testing.T, m *acctest.Metal, n int) (*acctest.CLI, string) {
	t.Helper()
	id := robotAccount(t, m) + "/" + strconv.Itoa(n)
	c := acctest.NewCLI(t, robotHostAs(m, n, "", "", ""))
	c.MustRun("import", addr, id)
	return c, id
}

// otherHost is another configuration's host on server n: named db-other.
func otherHost(m *acctest.Metal, n int) string {
	return strings.Replace(robotHostAs(m, n, "", "", ""), `"db-1"`, `"db-other"`, 1)
}
