package instance_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// stateInstance is one compute_instance object of a raw state file.
type stateInstance struct {
	Address string
	ID      string
	Name    string
	Claim   string
	Tainted bool
	Deposed bool
}

// rawInstances reads the compute_instance objects of a state file's JSON.
func rawInstances(t *testing.T, raw []byte) []stateInstance {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	var st struct {
		Resources []struct {
			Mode, Type, Name string
			Instances        []struct {
				IndexKey   any    `json:"index_key"`
				Status     string `json:"status"`
				Deposed    string `json:"deposed"`
				Attributes struct {
					ID    string `json:"id"`
					Name  string `json:"name"`
					Claim string `json:"claim"`
				} `json:"attributes"`
			}
		}
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatalf("read state: %v\n%s", err, raw)
	}
	var out []stateInstance
	for _, r := range st.Resources {
		if r.Mode != "managed" || r.Type != "compute_instance" {
			continue
		}
		for _, i := range r.Instances {
			out = append(out, stateInstance{
				Address: fmt.Sprintf("compute_instance.%s[%v]", r.Name, i.IndexKey),
				ID:      i.Attributes.ID, Name: i.Attributes.Name,
				Claim: i.Attributes.Claim, Tainted: i.Status == "tainted", Deposed: i.Deposed != "",
			})
		}
	}
	return out
}

// localState is the local backend's state file of a working directory.
func localState(c *acctest.CLI) []byte {
	b, _ := os.ReadFile(filepath.Join(c.Dir, "terraform.tfstate"))
	return b
}

// agree asserts that the state and the emulator agree: every live server
// is held by exactly one state object of the same name and claim, every
// object names a live server, and names are not repeated.
func agree(t *testing.T, e *acctest.Emulator, objects []stateInstance, wantNames ...string) {
	t.Helper()
	live := map[string]string{} // machine id -> name
	byName := map[string]int{}
	for _, s := range e.Live() {
		live[fmt.Sprint(s.ID)] = s.Name
		byName[s.Name]++
	}
	var names []string
	for n, count := range byName {
		names = append(names, n)
		if count != 1 {
			t.Errorf("the emulator holds %d servers named %q, want 1", count, n)
		}
	}
	sort.Strings(names)
	sort.Strings(wantNames)
	if strings.Join(names, ",") != strings.Join(wantNames, ",") {
		t.Errorf("the emulator holds servers %v, want %v", names, wantNames)
	}
	held := map[string]bool{}
	for _, o := range objects {
		machineID := o.ID[strings.LastIndex(o.ID, "/")+1:]
		server, ok := e.Server(atoi(t, machineID))
		switch {
		case !ok || server.Status == "deleting":
			t.Errorf("%s holds machine %s, which is gone", o.Address, machineID)
		case o.Tainted || o.Deposed:
			t.Errorf("%s is tainted or deposed", o.Address)
		case server.Labels[markPrefix+"claim"] != o.Claim || o.Claim == "":
			t.Errorf("%s keeps claim %q, machine %s carries %q", o.Address, o.Claim, machineID, server.Labels[markPrefix+"claim"])
		case held[machineID]:
			t.Errorf("machine %s is held by two objects of the state", machineID)
		}
		held[machineID] = true
	}
	for id, name := range live {
		if !held[id] {
			t.Errorf("server %s (%s) is in no state object", id, name)
		}
	}
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("machine id %q: %v", s, err)
	}
	return n
}

// emptyPlan asserts that a plan finds nothing to change.
func emptyPlan(t *testing.T, c *acctest.CLI) {
	t.Helper()
	out, err := c.Run("plan", "-detailed-exitcode", "-input=false")
	if err != nil {
		t.Fatalf("the plan after the rerun is not empty (%v):\n%s", err, out)
	}
}

// toldItLost asserts that a state whose machine another state took over
// plans nothing and says so.
func toldItLost(t *testing.T, c *acctest.CLI) {
	t.Helper()
	out, err := c.Run("plan", "-detailed-exitcode")
	if err != nil || !acctest.Match(`Instance held by another state.*terraform state rm`).MatchString(out) {
		t.Fatalf("the plan of a state that lost its machine: %v, want an empty plan with the warning:\n%s", err, out)
	}
}

// destroyForgets asserts that such a state's destroy forgets the machine
// and says so.
func destroyForgets(t *testing.T, c *acctest.CLI) {
	t.Helper()
	if out := c.MustRun("destroy", "-auto-approve"); !strings.Contains(out, "Instance forgotten, not deleted") {
		t.Errorf("the destroy of a state that lost its machine did not say it forgot it:\n%s", out)
	}
}
