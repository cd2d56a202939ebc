package tfidentity

import (
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestCheckMachineIDShowsANumber: a machine id is no secret, so one that
// is out of range is shown, and one past any integer is called too large.
func TestCheckMachineIDShowsANumber(t *testing.T) {
	def := adapter.Definition{Kind: "hcloud", Rules: adapter.Rules{MachineID: adapter.Rule{
		Check: func(id string) bool { n, err := strconv.ParseInt(id, 10, 64); return err == nil && n > 0 },
		Text:  "a positive number",
	}}}
	err := CheckMachineID("MACHINE_ID", "99999999999999999999999", def)
	if err == nil || !strings.Contains(err.Error(), `"99999999999999999999999" is too large`) {
		t.Errorf("a 23-digit id: %v, want it shown and called too large", err)
	}
	err = CheckMachineID("MACHINE_ID", "0", def)
	if err == nil || !strings.Contains(err.Error(), `"0" is not a machine id`) {
		t.Errorf("id 0: %v", err)
	}
	if err := CheckMachineID("MACHINE_ID", "42", def); err != nil {
		t.Errorf("id 42: %v", err)
	}
}
