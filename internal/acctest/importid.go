package acctest

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// ImportID is an ImportStateIdFunc for a machine resource (compute_instance,
// compute_bootstrap_host): its import id, ACCOUNT_ID/MACHINE_ID, built from
// the state's account and id, as a user copies them from `terraform state
// show`. The resource's id alone, the machine's, does not say which account
// to read it through.
func ImportID(addr string) func(*terraform.State) (string, error) {
	return func(s *terraform.State) (string, error) {
		rs, ok := s.RootModule().Resources[addr]
		if !ok || rs.Primary == nil {
			return "", fmt.Errorf("acctest: %s is not in the state", addr)
		}
		return rs.Primary.Attributes["account"] + "/" + rs.Primary.ID, nil
	}
}
