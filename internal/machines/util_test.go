package machines_test

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/netfault"
)

// instanceID matches the import id of machine id on any hcloud account.
func instanceID(id int64) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`^\{"endpoint":"[^"]+","kind":"hcloud",.*"name":"test",.*\}/%d$`, id))
}

// emulatorCheck runs check, which asks the emulator, after a step's apply.
// Steps with for_each instances cannot use Check: terraform-plugin-testing's
// state shim refuses them.
func emulatorCheck(check func() error) statecheck.StateCheck { return checkFunc(check) }

type checkFunc func() error

func (f checkFunc) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = f()
}

// accountID matches an hcloud account id.
var accountID = regexp.MustCompile(`^\{"endpoint":"[^"]+","kind":"hcloud",.*\}$`)

// firstHost matches the first address of a server's /64 in the
// documentation range.
var firstHost = regexp.MustCompile(`^2001:db8:[0-9a-f:]*::1$`)

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

func queryEscape(s string) string { return url.QueryEscape(s) }

// closedEndpoint is an API URL on a loopback port that nothing listens on.
func closedEndpoint(t *testing.T) string { return "http://" + netfault.ClosedAddr(t) + "/v1" }
