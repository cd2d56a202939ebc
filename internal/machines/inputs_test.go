package machines_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestMachinesRefusedInputs: every refusal names the attribute, the value
// and the way out, before any account is read.
func TestMachinesRefusedInputs(t *testing.T) {
	t.Parallel()
	const id = "hcloud:endpoint=http%3A%2F%2F127.0.0.1%3A1%2Fv1&location=fsn1&token=env%3A%2F%2FX"
	with := func(extra string) string { return `accounts = ["` + id + `"]` + "\n  " + extra }
	cases := map[string]struct {
		body string
		want string
	}{
		"no accounts":  {`accounts = []`, `accounts is empty: list the id of at least one compute_provider_account, e\.g\. accounts = \[compute_provider_account\.cloud\.id\]`},
		"empty id":     {`accounts = [""]`, `accounts\[0\] is an empty string; use the id attribute of a compute_provider_account`},
		"repeated id":  {fmt.Sprintf(`accounts = [%q, %q]`, id, id), `accounts\[1\] repeats accounts\[0\] \(hcloud:endpoint=http://127\.0\.0\.1:1/v1&location=fsn1&token=env://X\); list each account once, or its machines appear twice`},
		"not an id":    {`accounts = ["prod-cloud"]`, `accounts\[0\] = "prod-cloud" is not a compute_provider_account id: .*Use the id attribute of a compute_provider_account, e\.g\. compute_provider_account\.cloud\.id`},
		"bad regex":    {with(`name_regex = "web-("`), `name_regex = "web-\(" is not a regular expression: missing closing \): .*Use RE2 syntax, as Terraform's regex function, e\.g\. "\^web-\[0-9\]\+\$"`},
		"empty regex":  {with(`name_regex = ""`), `name_regex is empty, which matches every name; set a pattern such as "\^web-", or leave name_regex out`},
		"empty prefix": {with(`name_prefix = ""`), `name_prefix is empty; set a prefix such as "web-", or leave name_prefix out to not filter on it`},
		"bad state":    {with(`states = ["running", "on"]`), `states holds "on", which is not a machine state; use pending, running, stopped, rescue, deleting, deleted, error, unknown`},
		"no states":    {with(`states = []`), `states is empty, which matches no machine; list states such as \["running", "stopped"\], or leave states out for every state`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(),
				Steps: []resource.TestStep{{
					Config:      "data \"compute_machines\" \"q\" {\n  " + c.body + "\n}\n",
					ExpectError: acctest.Match(c.want),
				}},
			})
		})
	}
}

// TestMachinesSameAccountTwice: one account in two spellings of its id is
// refused rather than listing every machine twice.
func TestMachinesSameAccountTwice(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Account()},
			{
				Config: e.Account() + fmt.Sprintf(`
data "compute_machines" "q" {
  # The same locator with its settings in another order and the default
  # location left out.
  accounts = [compute_provider_account.test.id, "hcloud:token=env%%3A%%2F%%2F%s&endpoint=%s"]
}
`, acctest.HetznerCloudTokenEnv, queryEscape(e.Endpoint)),
				ExpectError: acctest.Match(`accounts\[1\] \(account hetzner_cloud at http://\S+\) is the same account as accounts\[0\]; list each account once`),
			},
		},
	})
	if n := e.Stats()["GET /servers"]; n != 0 {
		t.Errorf("%d listings for a refused configuration", n)
	}
}

// TestMachinesUnreachableAccount: a refused connection is given up after a few
// quick retries within timeouts.unreachable, long before the read timeout,
// and the way out names the endpoint, says the state is kept and which
// timeout to raise.
func TestMachinesUnreachableAccount(t *testing.T) {
	t.Parallel()
	endpoint := closedEndpoint(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
data "compute_machines" "q" {
  accounts = ["hcloud:endpoint=%s&location=fsn1&token=env%%3A%%2F%%2F%s"]
  timeouts {
    read = "1m"
  }
}
`, queryEscape(endpoint), acctest.HetznerCloudTokenEnv),
			ExpectError: acctest.Match(`Listing the machines of account hetzner_cloud at \S+ failed\. The account's endpoint ` + endpoint + ` could not be reached \(connection refused\), so the read gave up on it within timeouts\.unreachable.*the state is kept as it was.*set timeouts\.unreachable to retry for longer\..*List the machines of accounts\[0\]: gave up, since the endpoint could not be reached for 30s \(7 attempt\(s\) by this read\).*refused`),
		}},
	})
}

// TestMachinesUnresolvableSecret: read during plan, the data source needs
// the secret there, and says so.
func TestMachinesUnresolvableSecret(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
data "compute_machines" "q" {
  accounts = ["hcloud:endpoint=%s&location=fsn1&token=env%%3A%%2F%%2FCOMPUTE_TEST_NOT_SET_ANYWHERE"]
}
`, queryEscape(e.Endpoint)),
			ExpectError: acctest.Match(`its secret reference cannot be resolved where Terraform runs, and compute_machines is read during plan, so the secret must be there already\..*environment variable COMPUTE_TEST_NOT_SET_ANYWHERE is not set`),
		}},
	})
}
