package offers_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/netfault"
)

// TestOffersRefusedInputs: every refusal names the attribute, the value and
// the way out, before any account is read.
func TestOffersRefusedInputs(t *testing.T) {
	t.Parallel()
	const id = "hcloud:endpoint=http%3A%2F%2F127.0.0.1%3A1%2Fv1&location=fsn1&token=env%3A%2F%2FX"
	cases := map[string]struct {
		body string
		want string
	}{
		"no accounts":    {`accounts = []`, `accounts is empty: list the id of at least one compute_provider_account, e\.g\. accounts = \[compute_provider_account\.cloud\.id\]`},
		"empty id":       {`accounts = [""]`, `accounts\[0\] is an empty string; use the id attribute of a compute_provider_account`},
		"repeated id":    {fmt.Sprintf(`accounts = [%q, %q]`, id, id), `accounts\[1\] repeats accounts\[0\] \(hcloud:endpoint=http://127\.0\.0\.1:1/v1&location=fsn1&token=env://X\); list each account once`},
		"negative vcpu":  {`accounts = ["` + id + `"]` + "\n  min_vcpu = -1", `min_vcpu = -1 is negative; use 0 or more, or leave min_vcpu out to not filter on it`},
		"negative mem":   {`accounts = ["` + id + `"]` + "\n  min_memory_gib = -0.5", `min_memory_gib = -0.5 is negative; use 0 or more`},
		"negative gpus":  {`accounts = ["` + id + `"]` + "\n  min_gpus = -2", `min_gpus = -2 is negative; use 0 or more`},
		"negative price": {`accounts = ["` + id + `"]` + "\n  max_price_per_hour = -1", `max_price_per_hour = -1 is negative; use 0 or more`},
		"kind":           {`accounts = ["` + id + `"]` + "\n  kind = \"VPS\"", `kind = "VPS" is not an offer kind; use "vps" \(virtual servers\) or "metal" \(dedicated machines\), or leave kind out for both`},
		"empty gpu":      {`accounts = ["` + id + `"]` + "\n  gpu_model = \" \"", `gpu_model = " " names no GPU model; name one such as "A100" or "RTX 4000", or leave gpu_model out`},
		"empty location": {`accounts = ["` + id + `"]` + "\n  location = \"\"", `location is empty; name a location, or leave location out to use each account's own location`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(),
				Steps: []resource.TestStep{{
					Config:      "data \"compute_offers\" \"q\" {\n  " + c.body + "\n}\n",
					ExpectError: acctest.Match(c.want),
				}},
			})
		})
	}
}

// TestOffersBadAccountID: a value that is not an account id says what an
// account id is and where to take one.
func TestOffersBadAccountID(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      `data "compute_offers" "q" { accounts = ["prod-cloud"] }`,
			ExpectError: acctest.Match(`accounts\[0\] = "prod-cloud" is not a compute_provider_account id: .*Use the id attribute of a compute_provider_account, e\.g\. compute_provider_account\.cloud\.id`),
		}},
	})
}

// TestOffersSameAccountTwice: one account named twice, in two spellings of
// its id, is refused rather than listing every offer twice.
func TestOffersSameAccountTwice(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: e.Account() + fmt.Sprintf(`
data "compute_offers" "q" {
  # The same locator with its settings in another order and the default
  # location left out.
  accounts = [compute_provider_account.test.id, "hcloud:token=env%%3A%%2F%%2F%s&endpoint=%s"]
}
`, acctest.HetznerCloudTokenEnv, queryEscape(e.Endpoint)),
			ExpectError: acctest.Match(`accounts\[1\] \(account hetzner_cloud at http://\S+\) is the same account as accounts\[0\]; list each account once`),
		}},
	})
}

// TestOffersZeroMaxPrice: nothing costs at most 0 per hour, and offers
// without a price are left out when a maximum is set, so the answer is [].
func TestOffersZeroMaxPrice(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:            query(e, `max_price_per_hour = 0`),
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(ds, tfjsonpath.New("offers"), knownvalue.ListExact([]knownvalue.Check{}))},
		}},
	})
}

// TestOffersAccountLocationUnknown: with no location on the data source the
// account's own location is used; when the backend does not know it, the
// message says so and points at the account, not at the unset filter.
func TestOffersAccountLocationUnknown(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
data "compute_offers" "q" {
  accounts = ["hcloud:endpoint=%s&location=xyz9&token=env%%3A%%2F%%2F%s"]
}
`, queryEscape(e.Endpoint), acctest.HetznerCloudTokenEnv),
			ExpectError: acctest.Match(`compute_offers sets no location, so the account's own location "xyz9" was used, and the backend does not know it\. Fix hetzner_cloud\.location of the compute_provider_account, or set location on this data source\..*Location "xyz9" does not exist; available: .*fsn1`),
		}},
	})
}

// TestOffersUnreachableAccount: a refused connection is given up after a few
// quick retries within timeouts.unreachable, long before the read timeout,
// and the way out names the endpoint, says the state is kept and which
// timeout to raise.
func TestOffersUnreachableAccount(t *testing.T) {
	t.Parallel()
	endpoint := closedEndpoint(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
data "compute_offers" "q" {
  accounts = ["hcloud:endpoint=%s&location=fsn1&token=env%%3A%%2F%%2F%s"]
  timeouts {
    read = "1m"
  }
}
`, queryEscape(endpoint), acctest.HetznerCloudTokenEnv),
			ExpectError: acctest.Match(`Listing the offers of account hetzner_cloud at \S+ with filters \(none\) failed\. The account's endpoint ` + endpoint + ` could not be reached \(connection refused\), so the read gave up on it within timeouts\.unreachable.*the state is kept as it was.*set timeouts\.unreachable to retry for longer\..*List the offers of accounts\[0\]: gave up, since the endpoint could not be reached for 30s \(7 attempt\(s\) by this read\).*refused`),
		}},
	})
}

// TestOffersUnreachableIsSettable: timeouts.unreachable sets the budget,
// "0s" for one attempt, and refuses what is no duration of zero or more.
func TestOffersUnreachableIsSettable(t *testing.T) {
	t.Parallel()
	endpoint := closedEndpoint(t)
	cfg := func(unreachable string) string {
		return fmt.Sprintf(`
data "compute_offers" "q" {
  accounts = ["hcloud:endpoint=%s&location=fsn1&token=env%%3A%%2F%%2F%s"]
  timeouts {
    unreachable = %q
  }
}
`, queryEscape(endpoint), acctest.HetznerCloudTokenEnv, unreachable)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg("0s"), ExpectError: acctest.Match(`gave up, since the endpoint could not be reached for 0s \(1 attempt\(s\) by this read\)`)},
			{Config: cfg("3s"), ExpectError: acctest.Match(`gave up, since the endpoint could not be reached for 3s \(3 attempt\(s\) by this read\)`)},
			{Config: cfg("-1s"), ExpectError: acctest.Match(`timeouts\.unreachable = "-1s" is negative`)},
		},
	})
}

// closedEndpoint is an API URL on a loopback port that nothing listens on.
func closedEndpoint(t *testing.T) string { return "http://" + netfault.ClosedAddr(t) + "/v1" }

// TestOffersUnresolvableSecret: a data source is read during plan, so an
// unresolvable reference fails it, and the message says where the secret
// must be.
func TestOffersUnresolvableSecret(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
data "compute_offers" "q" {
  accounts = ["hcloud:endpoint=%s&location=fsn1&token=env%%3A%%2F%%2FCOMPUTE_TEST_NOT_SET_ANYWHERE"]
}
`, queryEscape(e.Endpoint)),
			ExpectError: acctest.Match(`its secret reference cannot be resolved where Terraform runs, and compute_offers is read during plan, so the secret must be there already\..*environment variable COMPUTE_TEST_NOT_SET_ANYWHERE is not set`),
		}},
	})
}
