package toycloud

import (
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// newClient is the account's client, which resolves the key for each
// request and keeps it in no field (rest.Bearer).
func newClient(endpoint, keyRef string, env adapter.Env) *rest.Client {
	return rest.New(rest.Config{Name: codes.API, Endpoint: endpoint, EndpointSetting: settingEndpoint, Example: DefaultEndpoint, Credential: "the API key",
		Timeout: 30 * time.Second, Env: env, LogName: "Toy Cloud", Failed: rest.ReadCoded, Classify: classify,
		Authenticate: rest.Bearer(env.Secrets, settingKey, keyRef)})
}

// codes place the API's error codes, and the request field an invalid_*
// code blames; any other answer is Transient, and only the API's own
// not_found proves absence (rest.Codes).
var codes = rest.Codes{API: "the Toy Cloud API", Credential: settingKey, Endpoint: settingEndpoint, Example: DefaultEndpoint,
	Codes: map[string]adapter.Code{"not_found": adapter.NotFound, "unauthorized": adapter.AccessDenied, "forbidden": adapter.AccessDenied,
		"invalid_input": adapter.InvalidInput, "invalid_size": adapter.InvalidInput, "invalid_image": adapter.InvalidInput,
		"invalid_region": adapter.InvalidInput, "rate_limit_exceeded": adapter.RateLimited},
	Fields: map[string]string{"invalid_size": adapter.FieldOfferID, "invalid_image": adapter.FieldImage, "invalid_region": adapter.FieldLocation}}

// classify is the adapter's one classify (rule 5, one classify).
func classify(err error) error { return codes.Classify(err) }
