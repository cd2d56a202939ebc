package toycloud

import (
	"context"
	"net/http"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

const apiName = "the Toy Cloud API"

// newClient is the account's client, which resolves the key for each
// request and keeps it in no field (rule 6, no secret leaves, of
// internal/adapter's package documentation).
func newClient(endpoint, keyRef string, env adapter.Env) *rest.Client {
	return rest.New(rest.Config{Name: apiName, Endpoint: endpoint, EndpointSetting: settingEndpoint, Example: DefaultEndpoint, Credential: "the API key",
		Timeout: 30 * time.Second, Env: env, LogName: "Toy Cloud", Failed: rest.ReadCoded, Classify: classify,
		Authenticate: func(ctx context.Context, req *http.Request) ([]string, error) {
			key, err := adapter.ResolveField(ctx, env.Secrets, settingKey, keyRef, "an existing secret")
			if err != nil {
				return nil, err
			}
			req.Header.Set("Authorization", "Bearer "+key)
			return []string{key}, nil
		}})
}

// codes place the API's error codes, and fields name the request field
// that an invalid_* code blames; any other answer is Transient.
var (
	codes = map[string]adapter.Code{"not_found": adapter.NotFound, "unauthorized": adapter.AccessDenied, "forbidden": adapter.AccessDenied,
		"invalid_input": adapter.InvalidInput, "invalid_size": adapter.InvalidInput, "invalid_image": adapter.InvalidInput,
		"invalid_region": adapter.InvalidInput, "rate_limit_exceeded": adapter.RateLimited}
	fields = map[string]string{"invalid_size": adapter.FieldOfferID, "invalid_image": adapter.FieldImage, "invalid_region": adapter.FieldLocation}
)

// classify is the adapter's one classify (rule 5, one classify). Only the
// API's own not_found proves absence, never a failed API's answer; a 404
// that is not the API's is a wrong endpoint.
func classify(err error) error {
	return rest.Classify(err, apiName, func(e *rest.CodedError) *adapter.Error {
		out := &adapter.Error{Code: codes[e.Code], Err: e, Message: apiName + ": " + e.Error(), Field: fields[e.Code]}
		switch {
		case out.Code == "" || e.Status >= 500:
			out.Code = adapter.Transient
		case out.Code == adapter.AccessDenied:
			out.Field = settingKey
		case out.Code == adapter.RateLimited:
			out.RetryAfter = max(e.RetryAfter, time.Second)
		}
		if e.Code == "" && e.Status == http.StatusNotFound {
			out.Code, out.Field = adapter.InvalidConfig, settingEndpoint
			out.Message += "; check that the endpoint is the API's base URL, such as " + DefaultEndpoint
		}
		return out
	}, nil)
}
