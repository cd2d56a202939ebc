package adapter_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The refusal is AccessDenied, wraps ErrUnmarked, and names the call, the
// machine, its id, what it lacks and the way out.
func TestRefusalNamesTheMachineAndTheWayOut(t *testing.T) {
	err := adapter.Unmarked{What: "delete", Machine: `VM 100 ("web")`, ID: "100", Lacks: `is not tagged "compute"`,
		WayOut: `or tag it "compute" in PVE if the provider created it`}.Refuse()
	if err.Code != adapter.AccessDenied || !errors.Is(err, adapter.ErrUnmarked) {
		t.Errorf("code %s, unmarked %v", err.Code, errors.Is(err, adapter.ErrUnmarked))
	}
	for _, want := range []string{`delete: VM 100 ("web") is not tagged "compute", so it is not managed by the provider and is left alone; to manage it, import it`,
		`an import block with id = "ACCOUNT_ID/100": the account's id, a slash, this id`, `, or tag it "compute" in PVE if the provider created it`} {
		if !strings.Contains(err.Message, want) {
			t.Errorf("message lacks %q: %s", want, err.Message)
		}
	}
}
