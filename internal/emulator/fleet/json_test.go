package fleet_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/fleet"
)

// TestJSONNames: a server is shown with the plainest REST API's lower-case
// names, the fleet's part and the API's own tagged fields side by side,
// never Go's field names ("ID", "Status"), which an API describes nowhere
// and a case-sensitive client would miss.
func TestJSONNames(t *testing.T) {
	a := newAPI(fleet.Config{})
	id := a.Seed(server{Machine: fleet.Machine{Name: "a", Labels: map[string]string{"k": "v"}}}).ID
	status, body := a.call("GET", fmt.Sprint("/v1/servers/", id), "")
	var out map[string]map[string]any
	if err := json.Unmarshal([]byte(body), &out); status != 200 || err != nil {
		t.Fatalf("GET: %d %s (%v)", status, body, err)
	}
	want := []string{"created", "id", "ipv4", "labels", "name", "size", "status"}
	if got := slices.Sorted(maps.Keys(out["server"])); !slices.Equal(got, want) {
		t.Errorf("a server's JSON names are %v, want %v: %s", got, want, body)
	}
}
