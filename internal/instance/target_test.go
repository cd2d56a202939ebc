package instance_test

import "github.com/seedcompute/terraform-provider-compute/internal/acctest"

// targetInstance is the target's account plus compute_instance.web of the
// target's offer and image, with the user's labels beside the sweep label
// (see acctest.Target.Labels) and extra lines.
func targetInstance(tg *acctest.Target, name string, labels map[string]string, extra ...string) string {
	return tg.Account() + acctest.InstanceBlock{Resource: "web", Account: "test", Name: name, Offer: tg.Offer, Image: tg.Image}.HCL(append([]string{tg.Labels(labels)}, extra...)...)
}
