package examples_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestMachinesExample adopts a fleet as the compute_machines example shows:
// three web- servers created outside the provider, one of them powered off,
// and a db- server the example leaves alone. The account is applied first, as the example says;
// then one apply imports the three, the next plan is empty, and
// compute_machines shows them managed.
func TestMachinesExample(t *testing.T) {
	t.Parallel()
	e := startEmulator(t)
	ids := map[string]int64{}
	for _, n := range []string{"web-2", "web-1", "web-3", "db-1"} {
		id, err := e.createServer(t.Context(), n, map[string]string{"role": n[:len(n)-2]})
		if err != nil {
			t.Fatal(err)
		}
		ids[n] = id
	}
	if err := e.waitStatus(t.Context(), ids["web-3"], "running"); err != nil {
		t.Fatal(err)
	}
	if err := e.post(t.Context(), fmt.Sprintf("/servers/%d/actions/poweroff", ids["web-3"]), nil, nil); err != nil {
		t.Fatal(err)
	}
	hcl := pointAtEmulator(t, readExample(t, machinesTF), e)
	// The account and the data source alone: what the example's first,
	// targeted apply leaves in state, and what is left once the fleet is
	// destroyed (terraform-plugin-testing's own destroy at the end of a test
	// cannot read for_each instances).
	inventory := removeBlock(t, removeBlock(t, removeBlock(t, hcl, `resource "compute_instance" "fleet" {`), "import {"), `output "fleet" {`)
	fleet := []string{"web-1", "web-2", "web-3"}
	at := func(n string) string { return fmt.Sprintf("compute_instance.fleet[%q]", n) }
	var imports, destroys []plancheck.PlanCheck
	managed := make([]knownvalue.Check, len(fleet))
	for i, n := range fleet {
		imports = append(imports, plancheck.ExpectResourceAction(at(n), plancheck.ResourceActionUpdate))
		destroys = append(destroys, plancheck.ExpectResourceAction(at(n), plancheck.ResourceActionDestroy))
		managed[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact(n), "managed": knownvalue.Bool(true)})
	}
	const ds = "data.compute_machines.fleet"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providers(),
		Steps: []resource.TestStep{
			{
				Config: inventory,
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(ds, tfjsonpath.New("machines"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("web-1"), "managed": knownvalue.Bool(false)}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("web-2"), "managed": knownvalue.Bool(false)}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("web-3"), "managed": knownvalue.Bool(false)}),
				}))},
			},
			{
				Config:           hcl,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: imports},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(at("web-1"), tfjsonpath.New("managed"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(at("web-1"), tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{"role": knownvalue.StringExact("web")})),
					// Adopted as it was: still off.
					statecheck.ExpectKnownValue(at("web-3"), tfjsonpath.New("state"), knownvalue.StringExact("stopped")),
					statecheck.ExpectKnownValue(at("web-2"), tfjsonpath.New("state"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownOutputValue("fleet", knownvalue.MapSizeExact(3)),
				},
			},
			{
				Config:            hcl,
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(ds, tfjsonpath.New("machines"), knownvalue.ListExact(managed))},
			},
			{
				Config:            inventory,
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: destroys},
				ConfigStateChecks: []statecheck.StateCheck{leftOnly(e, "db-1")},
			},
		},
	})
}

// leftOnly checks that the emulator holds exactly the named servers.
func leftOnly(e *emulator, want ...string) statecheck.StateCheck {
	return stateCheck(func() error {
		names, err := e.serverNames(context.Background())
		if err != nil {
			return err
		}
		slices.Sort(names)
		if !slices.Equal(names, want) {
			return fmt.Errorf("the emulator holds %v, want %v", names, want)
		}
		return nil
	})
}

type stateCheck func() error

func (f stateCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = f()
}

// createServer creates a server through the API, as someone using the
// console or another tool would: without the provider's marks.
func (e *emulator) createServer(ctx context.Context, name string, labels map[string]string) (int64, error) {
	var created struct {
		Server struct {
			ID int64 `json:"id"`
		} `json:"server"`
	}
	err := e.post(ctx, "/servers", map[string]any{"name": name, "server_type": "cx22", "image": "ubuntu-24.04", "location": "fsn1", "labels": labels}, &created)
	return created.Server.ID, err
}

// waitStatus reads a server until it has status: the emulator finishes a
// server's actions after a number of reads, not after a time.
func (e *emulator) waitStatus(ctx context.Context, id int64, status string) error {
	var last string
	for range 20 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/servers/%d", e.hcloud, id), nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+emulatorToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		var got struct {
			Server struct {
				Status string `json:"status"`
			} `json:"server"`
		}
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if last = got.Server.Status; last == status {
			return nil
		}
	}
	return fmt.Errorf("server %d is %q after 20 reads, want %q", id, last, status)
}

// post sends body to the API path and decodes the answer into out, if any.
func (e *emulator) post(ctx context.Context, path string, body, out any) error {
	b, _ := json.Marshal(body)
	if body == nil {
		b = nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.hcloud+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+emulatorToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("POST %s answered %s", path, resp.Status)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// removeBlock deletes the top-level block that starts with head (e.g.
// `import {`), counting braces.
func removeBlock(t *testing.T, hcl, head string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(head)).FindStringIndex(hcl)
	if m == nil {
		t.Fatalf("no block %q in the example", head)
	}
	depth := 0
	for i := m[0]; i < len(hcl); i++ {
		switch hcl[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return hcl[:m[0]] + hcl[i+1:]
			}
		}
	}
	t.Fatalf("unbalanced braces after %q", head)
	return ""
}
