package toycloud

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// TestClassify places every API code, a failed API, an unknown code, a
// 404 that is not the API's and a 429 without Retry-After.
func TestClassify(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		code       adapter.Code
		field      string
		retryAfter time.Duration
	}{
		{name: "not_found", err: &rest.CodedError{Status: 404, Code: "not_found", Message: "no server 7"}, code: adapter.NotFound},
		{name: "unauthorized", err: &rest.CodedError{Status: 401, Code: "unauthorized", Message: "bad key"}, code: adapter.AccessDenied, field: settingKey},
		{name: "forbidden", err: &rest.CodedError{Status: 403, Code: "forbidden", Message: "read-only key"}, code: adapter.AccessDenied, field: settingKey},
		{name: "invalid_input", err: &rest.CodedError{Status: 422, Code: "invalid_input", Message: "bad name"}, code: adapter.InvalidInput},
		{name: "invalid_size", err: &rest.CodedError{Status: 422, Code: "invalid_size", Message: "no such size"}, code: adapter.InvalidInput, field: adapter.FieldOfferID},
		{name: "invalid_image", err: &rest.CodedError{Status: 422, Code: "invalid_image", Message: "no such image"}, code: adapter.InvalidInput, field: adapter.FieldImage},
		{name: "invalid_region", err: &rest.CodedError{Status: 422, Code: "invalid_region", Message: "no such region"}, code: adapter.InvalidInput, field: adapter.FieldLocation},
		{name: "rate_limit_exceeded", err: &rest.CodedError{Status: 429, Code: "rate_limit_exceeded", Message: "slow down", RetryAfter: 7 * time.Second},
			code: adapter.RateLimited, retryAfter: 7 * time.Second},
		{name: "429 without Retry-After", err: &rest.CodedError{Status: 429, Code: "rate_limit_exceeded", Message: "slow down"},
			code: adapter.RateLimited, retryAfter: time.Second},
		{name: "5xx with a known code", err: &rest.CodedError{Status: 503, Code: "not_found", Message: "backend down"}, code: adapter.Transient},
		{name: "5xx without a code", err: &rest.CodedError{Status: 502}, code: adapter.Transient},
		{name: "unknown code", err: &rest.CodedError{Status: 422, Code: "brand_new_code", Message: "new"}, code: adapter.Transient},
		{name: "404 without a code", err: &rest.CodedError{Status: 404}, code: adapter.InvalidConfig, field: settingEndpoint},
		{name: "canceled", err: context.Canceled, code: adapter.Transient},
		{name: "unknown failure", err: errors.New("something odd"), code: adapter.Transient},
	}
	named := map[string]bool{}
	covered := map[adapter.Code]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e *adapter.Error
			if got := classify(tt.err); !errors.As(got, &e) {
				t.Fatalf("classify returned %T %v, want *adapter.Error", got, got)
			}
			if e.Code != tt.code || e.Field != tt.field || e.RetryAfter != tt.retryAfter {
				t.Errorf("classified as %s on %q after %s (%q), want %s on %q after %s", e.Code, e.Field, e.RetryAfter, e.Message, tt.code, tt.field, tt.retryAfter)
			}
			var coded *rest.CodedError
			if errors.As(tt.err, &coded) && coded.Code != "" && coded.Status < 500 {
				named[coded.Code] = true
			}
			covered[tt.code] = true
		})
	}
	if classify(nil) != nil {
		t.Error("classify(nil) must be nil")
	}
	for c := range codes {
		if !named[c] {
			t.Errorf("no case answers with the API's code %s", c)
		}
	}
	for _, c := range []adapter.Code{adapter.NotFound, adapter.AccessDenied, adapter.InvalidInput, adapter.RateLimited, adapter.Transient, adapter.InvalidConfig} {
		if !covered[c] {
			t.Errorf("no case classifies into %s", c)
		}
	}
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
