package instance_test

import (
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// v0 is testdata/v0: a state that version 0.0.1 of the provider wrote
// (schema version 0, ids ACCOUNT_ID/MACHINE_ID with the account id in its
// query form), the configuration it applied and the server it made.
type v0 struct {
	state, config string
	server        struct {
		ID         int64             `json:"id"`
		Name       string            `json:"name"`
		Labels     map[string]string `json:"labels"`
		ServerType string            `json:"server_type"`
		Image      string            `json:"image"`
		Location   string            `json:"location"`
		Created    time.Time         `json:"created"`
	}
}

func readV0(t *testing.T, endpoint string) v0 {
	t.Helper()
	var f v0
	raw, err := os.ReadFile("testdata/v0/server.json")
	if err == nil {
		err = json.Unmarshal(raw, &f.server)
	}
	if err != nil {
		t.Fatal(err)
	}
	fill := strings.NewReplacer("{{ENDPOINT_QUERY}}", url.QueryEscape(endpoint), "{{ENDPOINT}}", endpoint, "{{TOKEN_ENV}}", acctest.HetznerCloudTokenEnv)
	for _, p := range []struct {
		file string
		to   *string
	}{{"testdata/v0/state.json", &f.state}, {"testdata/v0/main.tf", &f.config}} {
		b, err := os.ReadFile(p.file)
		if err != nil {
			t.Fatal(err)
		}
		*p.to = fill.Replace(string(b))
	}
	return f
}

// TestStateOfVersion0Upgrades: a state the provider wrote before ids were
// the machine's own (schema version 0) is upgraded on the next plan. That
// plan replaces and deletes nothing: the account's id takes its JSON form
// with the name, and the instance is re-pointed at it in place. Its apply
// sends nothing to the server, and the plan after it is empty.
//
// With the endpoint written with a trailing slash, the account's id changes
// (to its canonical form) while its configuration does not: its health is
// still checked anew by that apply, and the plan must say so.
func TestStateOfVersion0Upgrades(t *testing.T) {
	t.Parallel()
	for name, spelled := range map[string]func(string) string{
		"endpoint as the API gives it":   func(e string) string { return e },
		"endpoint with a trailing slash": func(e string) string { return e + "/" },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			upgradeV0(t, spelled)
		})
	}
}

func upgradeV0(t *testing.T, spelled func(string) string) {
	e := acctest.NewEmulator(t)
	f := readV0(t, spelled(e.Endpoint))
	id := e.AddServer(emu.Server{Name: f.server.Name, Labels: f.server.Labels, ServerType: f.server.ServerType,
		Image: f.server.Image, Location: f.server.Location, Created: f.server.Created})
	if id != f.server.ID {
		t.Fatalf("the emulator gave the seeded server id %d, the state holds %d", id, f.server.ID)
	}
	c := acctest.NewCLI(t, f.config)
	c.Write("terraform.tfstate", f.state)
	e.ResetStats()

	c.MustRun("plan", "-out=upgrade.tfplan")
	plan := planJSON(t, c, "upgrade.tfplan")
	for _, rc := range plan.ResourceChanges {
		if strings.Join(rc.Change.Actions, ",") != "update" && strings.Join(rc.Change.Actions, ",") != "no-op" {
			t.Errorf("%s: the upgraded state plans %v, want an update in place at most", rc.Address, rc.Change.Actions)
		}
	}
	web := plan.change("compute_instance.web")
	if web == nil || web.Change.After["id"] != "4200001" {
		t.Fatalf("the upgraded instance's id is not the machine's own: %+v", web)
	}
	c.MustRun("apply", "-auto-approve", "upgrade.tfplan")
	if _, err := c.Run("plan", "-detailed-exitcode"); err != nil {
		out, _ := c.Run("plan")
		t.Fatalf("the plan after the upgrade's apply is not empty (%v):\n%s", err, out)
	}
	for route, n := range e.Stats() {
		// The account's apply proves its token may write with an empty
		// update of SSH key 0, which changes nothing; the servers are
		// only read.
		if !strings.HasPrefix(route, "GET ") && strings.Contains(route, "/servers") {
			t.Errorf("the upgrade sent %d %s; it may only read the servers", n, route)
		}
	}
	if s, ok := e.Server(f.server.ID); !ok || s.Status != "running" || s.Labels["compute.seedcompute.io/claim"] != f.server.Labels["compute.seedcompute.io/claim"] {
		t.Fatalf("the server changed: %+v", s)
	}
}

// planned is `terraform show -json` of a saved plan, as much of it as the
// upgrade test reads.
type planned struct {
	ResourceChanges []resourceChange `json:"resource_changes"`
}

type resourceChange struct {
	Address string `json:"address"`
	Change  struct {
		Actions []string       `json:"actions"`
		After   map[string]any `json:"after"`
	} `json:"change"`
}

func (p planned) change(addr string) *resourceChange {
	for i := range p.ResourceChanges {
		if p.ResourceChanges[i].Address == addr {
			return &p.ResourceChanges[i]
		}
	}
	return nil
}

func planJSON(t *testing.T, c *acctest.CLI, file string) planned {
	t.Helper()
	out := c.MustRun("show", "-json", file)
	var p planned
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("read the plan: %v\n%s", err, out)
	}
	return p
}
