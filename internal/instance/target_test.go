package instance_test

import (
	"fmt"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// targetInstance is the target's account plus compute_instance.web of the
// target's offer and image, with the user's labels beside the sweep label
// (see acctest.Target.Labels) and extra lines.
func targetInstance(tg *acctest.Target, name string, labels map[string]string, extra ...string) string {
	return tg.Account() + fmt.Sprintf(`
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = %q
  offer_id = %q
  image    = %q
  %s
  %s
}
`, name, tg.Offer, tg.Image, tg.Labels(labels), strings.Join(extra, "\n  "))
}
