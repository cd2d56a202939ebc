package rest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest/resttest"
)

// testCodes is a table as a backend writes it.
var testCodes = rest.Codes{API: "the Test API", Credential: "token", Endpoint: "endpoint", Example: "https://api.test.example/v1",
	Codes: map[string]adapter.Code{"not_found": adapter.NotFound, "forbidden": adapter.AccessDenied, "invalid_size": adapter.InvalidInput,
		"conflict": adapter.Conflict, "rate_limit_exceeded": adapter.RateLimited},
	Fields: map[string]string{"invalid_size": adapter.FieldOfferID, "forbidden": adapter.FieldOfferID}}

// TestCodesClassify: the table's classify places every answer as the
// contract wants; a field the table names for an AccessDenied code gives
// way to the credential setting.
func TestCodesClassify(t *testing.T) {
	def := adapter.Definition{Kind: "test", Settings: []adapter.Setting{{Name: "token", Role: adapter.RoleSecret}, {Name: "endpoint", Role: adapter.RoleEndpoint}}}
	resttest.Classify(t, def, testCodes.Classify, testCodes, map[string]resttest.Placement{
		"not_found": {Code: adapter.NotFound}, "forbidden": {Code: adapter.AccessDenied, Field: "token"},
		"invalid_size": {Code: adapter.InvalidInput, Field: adapter.FieldOfferID}, "conflict": {Code: adapter.Conflict},
		"rate_limit_exceeded": {Code: adapter.RateLimited},
	})
}

// TestBearer: the token is resolved for the request, set as a bearer and
// returned to be withheld; a reference that does not resolve sends nothing
// and blames the setting without the token.
func TestBearer(t *testing.T) {
	secrets := adapter.SecretResolver{Provider: map[string]string{"t": "tok-1"}}
	req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://127.0.0.1/", nil)
	withheld, err := rest.Bearer(secrets, "token", "provider://t")(context.Background(), req)
	if err != nil || req.Header.Get("Authorization") != "Bearer tok-1" || len(withheld) != 1 || withheld[0] != "tok-1" {
		t.Errorf("got header %q, withheld %q, error %v", req.Header.Get("Authorization"), withheld, err)
	}
	req.Header.Del("Authorization")
	_, err = rest.Bearer(secrets, "token", "provider://missing")(context.Background(), req)
	if adapter.FieldOf(err) != "token" || !adapter.Is(err, adapter.InvalidConfig) || req.Header.Get("Authorization") != "" {
		t.Errorf("an unresolved reference: %v (field %q), header %q", err, adapter.FieldOf(err), req.Header.Get("Authorization"))
	}
}

// TestCodesListing: a listing's not_found blames the endpoint; its other
// answers are placed as Classify places them.
func TestCodesListing(t *testing.T) {
	err := testCodes.Listing(&rest.CodedError{Status: 404, Code: "not_found", Message: "no such route"})
	if !adapter.Is(err, adapter.InvalidConfig) || adapter.FieldOf(err) != "endpoint" {
		t.Errorf("a listing's not_found: %v (field %q)", err, adapter.FieldOf(err))
	}
	if err := testCodes.Listing(&rest.CodedError{Status: 403, Code: "forbidden"}); !adapter.Is(err, adapter.AccessDenied) || testCodes.Listing(nil) != nil {
		t.Errorf("a listing's forbidden: %v", err)
	}
}
