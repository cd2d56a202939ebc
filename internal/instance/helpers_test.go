package instance_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

const addr = "compute_instance.web"

// instance is the account plus compute_instance.web with extra lines.
func instance(e *acctest.Emulator, name string, extra ...string) string {
	return e.Account() + acctest.InstanceBlock{Resource: "web", Account: "test", Name: name, Offer: "cx22", Image: "ubuntu-24.04"}.HCL(extra...)
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// checkServers asserts the number of live servers in the emulator.
func checkServers(e *acctest.Emulator, want int) func(*terraform.State) error {
	return func(*terraform.State) error {
		if got := len(e.Live()); got != want {
			return fmt.Errorf("emulator holds %d live servers, want %d: %+v", got, want, e.Live())
		}
		return nil
	}
}

// userLabels drops the provider's marks.
func userLabels(labels map[string]string) map[string]string {
	out := maps.Clone(labels)
	for k := range out {
		if strings.HasPrefix(k, markPrefix) {
			delete(out, k)
		}
	}
	return out
}

const markPrefix = "compute.seedcompute.io/"
