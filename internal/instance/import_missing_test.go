package instance_test

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestInstanceImportOfNoMachine: an import block naming a machine the
// account does not have fails naming the machine, the account and the way
// out (the backend's own id, the account by reference), rather than
// Terraform's "non-existent remote object", and imports nothing.
func TestInstanceImportOfNoMachine(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	c := acctest.NewCLI(t, instance(e, "ghost")+`
import {
  to = compute_instance.web
  id = "${compute_provider_account.test.id}/424242"
}
`)
	out, err := c.Run("plan")
	if err == nil {
		t.Fatalf("the plan imported a machine that does not exist:\n%s", out)
	}
	block := strings.Join(strings.Fields(acctest.Diagnostic(out, "Error: Unable to import instance")), " ")
	for _, want := range []string{`Machine 424242 does not exist on account "test"`, "Nothing was imported",
		"the backend's own id", "compute_provider_account.NAME.id"} {
		if !strings.Contains(block, want) {
			t.Errorf("the import's error lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "non-existent") {
		t.Errorf("Terraform's own wording came through:\n%s", out)
	}
}
