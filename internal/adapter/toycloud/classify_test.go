package toycloud

import (
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest/resttest"
)

// TestClassify places every API code where the API's description says it
// belongs, a failed API, an unknown code, a 404 that is not the API's and a
// 429 without Retry-After.
func TestClassify(t *testing.T) {
	resttest.Classify(t, Definition(), classify, codes, map[string]resttest.Placement{
		"not_found":           {Code: adapter.NotFound},
		"unauthorized":        {Code: adapter.AccessDenied, Field: settingKey},
		"forbidden":           {Code: adapter.AccessDenied, Field: settingKey},
		"invalid_input":       {Code: adapter.InvalidInput},
		"invalid_size":        {Code: adapter.InvalidInput, Field: adapter.FieldOfferID},
		"invalid_image":       {Code: adapter.InvalidInput, Field: adapter.FieldImage},
		"invalid_region":      {Code: adapter.InvalidInput, Field: adapter.FieldLocation},
		"rate_limit_exceeded": {Code: adapter.RateLimited},
	})
}

// FuzzClassify: whatever an endpoint answers, each read, listing and delete
// of a server comes back classified, NotFound only on the API's own
// not-found code (the table's, resttest.NotFoundCodes) in an error answer, and a server read holds to the contract's
// states.
func FuzzClassify(f *testing.F) {
	conformance.FuzzTarget(f, func(base string) (adapter.Adapter, error) {
		settings := map[string]string{settingKey: "provider://toycloud", settingRegion: "north", settingEndpoint: base + "/v1"}
		return Definition().New(settings, testEnv(adaptertest.InstantClock{}))
	}, "1", adapter.CreateRequest{Name: "web-1", OfferID: "tiny", Image: "plain", Location: "north", PowerOn: true}, adaptertest.CodedNotFound(resttest.NotFoundCodes(codes)...),
		`{"error":{"code":"not_found","message":"no server 1"}}`,
		`{"error":{"code":"rate_limit_exceeded","message":"slow down"}}`,
		`{"error":{"code":"invalid_size","message":"no such size"}}`,
		`{"server":{"id":1,"name":"x","status":"running","labels":{}}}`,
		`{"server":{"id":1,"name":"x","status":"booting","labels":{"compute.seedcompute.io/managed":"true"},"ipv4":"192.0.2.1"}}`,
		`{"servers":[{"id":1,"name":"x","status":"off"}],"next_page":2}`,
		`{"sizes":[{"name":"tiny","regions":["north"],"hourly":-1}]}`)
}
