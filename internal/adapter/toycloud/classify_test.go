package toycloud

import (
	"net/http/httptest"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest/resttest"
)

// TestClassify places every API code, a failed API, an unknown code, a
// 404 that is not the API's and a 429 without Retry-After.
func TestClassify(t *testing.T) {
	resttest.Classify(t, classify, codes)
}

// FuzzClassify: whatever an endpoint answers, each read, listing and delete
// of a server comes back classified, NotFound only on the API's own
// not_found in an error answer, and a server read holds to the contract's
// states.
func FuzzClassify(f *testing.F) {
	conformance.AnswerSeeds(f,
		`{"error":{"code":"not_found","message":"no server 1"}}`,
		`{"error":{"code":"rate_limit_exceeded","message":"slow down"}}`,
		`{"error":{"code":"invalid_size","message":"no such size"}}`,
		`{"server":{"id":1,"name":"x","status":"running","labels":{}}}`,
		`{"server":{"id":1,"name":"x","status":"booting","labels":{"compute.managed":"true"},"ip":"192.0.2.1"}}`,
		`{"servers":[{"id":1,"name":"x","status":"off"}],"next":"2"}`,
		`{"sizes":[{"id":"tiny","regions":["north"]}]}`)
	answer := &conformance.Answer{}
	srv := httptest.NewServer(answer)
	f.Cleanup(srv.Close)
	settings := map[string]string{settingKey: "provider://toycloud", settingRegion: "north", settingEndpoint: srv.URL + "/v1"}
	// A fresh account per run: nothing one answer taught it carries over
	// into the next.
	newAdapter := func() adapter.Adapter {
		a, err := Definition().New(settings, adapter.Env{Secrets: adapter.SecretResolver{Provider: map[string]string{"toycloud": confKey}},
			Clock: adaptertest.InstantClock{}})
		if err != nil {
			f.Fatal(err)
		}
		return a
	}
	f.Fuzz(func(t *testing.T, call uint8, status int, body []byte) {
		conformance.FuzzAnswer(t, answer, newAdapter, "1",
			adapter.CreateRequest{Name: "web-1", OfferID: "tiny", Image: "plain", Location: "north", PowerOn: true}, call, status, body, adaptertest.CodedNotFound)
	})
}
