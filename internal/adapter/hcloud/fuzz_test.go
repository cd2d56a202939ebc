package hcloud

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
)

// FuzzClassify: whatever an endpoint answers, each read, listing and delete
// of a server comes back classified, NotFound only on the API's own
// not_found in an error answer, and a server read holds to the contract's
// states.
func FuzzClassify(f *testing.F) {
	conformance.AnswerSeeds(f,
		`{"error":{"code":"not_found","message":"server with ID '1' not found","details":{}}}`,
		`{"error":{"code":"rate_limit_exceeded","message":"limit","details":{}}}`,
		`{"error":{"code":"invalid_input","message":"invalid","details":{"fields":[{"name":"name","messages":["x"]}]}}}`,
		`{"server":{"id":1,"name":"x","status":"running","labels":{}}}`,
		`{"server":{"id":1,"name":"x","status":"stopping","labels":{}}}`,
		`{"server":{"id":1,"name":"x","status":"running","labels":{"compute.managed":"true"},"public_net":{"ipv4":{"ip":"192.0.2.1"}}}}`,
		`{"action":{"id":1,"command":"delete_server","status":"error","error":{"code":"action_failed","message":"x"}}}`,
		`{"servers":[],"meta":{"pagination":{"page":1,"per_page":50,"next_page":2,"total_entries":9}}}`,
		`{"server_types":[{"id":1,"name":"cx22","prices":[{"location":"fsn1","price_hourly":{"gross":"x"}}]}]}`,
		`{"locations":[{"id":1,"name":"fsn1"}],"server_types":[{"id":1,"name":"cx22","cores":2,"memory":4,"disk":40,`+
			`"prices":[{"location":"fsn1","price_hourly":{"net":"NaN","gross":"NaN"},"price_monthly":{"net":"1","gross":"1"}}],`+
			`"locations":[{"id":1,"name":"fsn1","available":true}]}]}`,
		`{"locations":[{"id":1,"name":"fsn1"}],"server_types":[{"id":1,"name":"cx22","cores":-2,"memory":-4,"disk":-40,`+
			`"prices":[{"location":"fsn1","price_hourly":{"net":"-1","gross":"-Inf"},"price_monthly":{"net":"1","gross":"1"}}],`+
			`"locations":[{"id":1,"name":"fsn1","available":true}]}]}`)
	answer := &conformance.Answer{}
	srv := httptest.NewServer(answer)
	f.Cleanup(srv.Close)
	// A fresh account per run: nothing one answer taught it (a cached
	// catalog, a listing) carries over into the next.
	newAdapter := func() adapter.Adapter {
		a, err := definition(testOptions()).New(testSettings(srv.URL+"/v1"), testEnv(testToken))
		if err != nil {
			f.Fatal(err)
		}
		return a
	}
	f.Fuzz(func(t *testing.T, call uint8, status int, body []byte) {
		conformance.FuzzAnswer(t, answer, newAdapter, "1",
			adapter.CreateRequest{Name: "web-1", OfferID: "cx22", Image: "ubuntu-24.04", Location: "fsn1", PowerOn: true}, call, status, body, notFoundProof)
	})
}

// notFoundProof is the API's proof of absence: an error answer whose code
// is not_found.
func notFoundProof(status int, body []byte) bool {
	var env struct {
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	return status >= 400 && status < 500 && json.Unmarshal(body, &env) == nil && env.Error != nil && env.Error.Code == "not_found"
}
