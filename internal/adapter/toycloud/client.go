package toycloud

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

const apiName = "the Toy Cloud API"

// newClient is the account's rest client: it resolves the key for each
// request and keeps it in no field (rule 6, no secret leaves).
func newClient(endpoint, keyRef string, env adapter.Env) *rest.Client {
	return rest.New(rest.Config{
		Name: apiName, Endpoint: endpoint, Example: DefaultEndpoint, Credential: "the API key",
		Timeout: 30 * time.Second, Env: env, LogName: "Toy Cloud",
		Authenticate: func(ctx context.Context, req *http.Request) ([]string, error) {
			key, err := env.Secrets.Resolve(ctx, keyRef)
			if err != nil {
				return nil, &adapter.Error{Code: adapter.InvalidConfig, Field: settingKey, Err: err,
					Message: settingKey + ": secret reference " + keyRef + " cannot be resolved; check that it names an existing secret"}
			}
			req.Header.Set("Authorization", "Bearer "+key)
			return []string{key}, nil
		},
		Failed:   failed,
		Classify: classify,
	})
}

// apiError is an error answer: {"error": {"code": …, "message": …}}.
type apiError struct {
	Status     int
	Code       string
	Message    string
	RetryAfter time.Duration
}

func (e *apiError) Error() string { return fmt.Sprintf("%s (%s, HTTP %d)", e.Message, e.Code, e.Status) }

func failed(a rest.Answer) error {
	var body struct{ Error struct{ Code, Message string } }
	_ = json.Unmarshal(a.Body, &body)
	return &apiError{Status: a.Status, Code: body.Error.Code, Message: body.Error.Message, RetryAfter: a.RetryAfter()}
}

// codes place the API's error codes; anything else is Transient.
var codes = map[string]adapter.Code{
	"not_found": adapter.NotFound, "unauthorized": adapter.AccessDenied, "forbidden": adapter.AccessDenied,
	"invalid_input": adapter.InvalidInput, "invalid_size": adapter.InvalidInput, "invalid_image": adapter.InvalidInput,
	"invalid_region": adapter.InvalidInput, "rate_limited": adapter.RateLimited, "locked": adapter.Transient,
}

// fields are the request fields the invalid_* codes blame.
var fields = map[string]string{"invalid_size": adapter.FieldOfferID, "invalid_image": adapter.FieldImage, "invalid_region": adapter.FieldLocation}

// classify is the adapter's one classify (rule 5).
func classify(err error) error {
	return rest.Classify(err, apiName, func(e *apiError) *adapter.Error {
		code, ok := codes[e.Code]
		if !ok || e.Status >= 500 || e.Status < 400 {
			// Only the API's own not_found proves absence; a failed API
			// proves nothing, whatever its body says.
			code = adapter.Transient
		}
		out := &adapter.Error{Code: code, Err: e, Message: apiName + ": " + e.Error(), Field: fields[e.Code]}
		switch {
		case code == adapter.AccessDenied:
			out.Field = settingKey
		case code == adapter.RateLimited:
			out.RetryAfter = max(e.RetryAfter, time.Second)
		case e.Code == "" && e.Status == http.StatusNotFound:
			// Not the API's answer: the endpoint serves something else.
			out.Code, out.Field = adapter.InvalidConfig, settingEndpoint
			out.Message += "; check that the endpoint is the API's base URL, such as " + DefaultEndpoint
		}
		return out
	}, nil)
}

// errNotFound is an already classified NotFound of machine id.
func errNotFound(id string) error {
	return adapter.Errorf(adapter.NotFound, "server %s does not exist on Toy Cloud", id)
}
