package acctest

import (
	"fmt"
	"strings"
)

// InstanceBlock is the configuration of one compute_instance: resource
// compute_instance.Resource on compute_provider_account.Account, with the
// arguments every instance has. It is the one place that writes that
// block's shape for the tests.
type InstanceBlock struct {
	Resource, Account  string
	Name, Offer, Image string
}

// HCL is the block, with extra lines (arguments, blocks or comments) after
// its arguments; an empty one adds a blank line.
func (b InstanceBlock) HCL(extra ...string) string {
	return fmt.Sprintf(`
resource "compute_instance" %q {
  account  = compute_provider_account.%s.id
  name     = %q
  offer_id = %q
  image    = %q
  %s
}
`, b.Resource, b.Account, b.Name, b.Offer, b.Image, strings.Join(extra, "\n  "))
}
