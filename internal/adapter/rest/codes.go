package rest

import (
	"net/http"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Codes is the classify of an API that answers errors as CodedError (its
// Config.Failed is ReadCoded), written as a table: the adapter's one
// classify (rule 5, one classify, of internal/adapter's package
// documentation) is a Codes' Classify method, and its table test
// (resttest.Classify) holds it to placements the backend's test states
// apart.
type Codes struct {
	// API names the API in messages: "the Toy Cloud API".
	API string
	// Codes places each of the API's error codes; a code not in it is
	// Transient, since an unknown answer is retried, never taken for
	// absence (rule 3, authoritative absence).
	Codes map[string]adapter.Code
	// Fields names the request field a code blames ("invalid_size":
	// adapter.FieldOfferID).
	Fields map[string]string
	// Credential is the setting an AccessDenied blames (the token's);
	// Endpoint the setting a 404 without a code blames, and Example the
	// base URL its message suggests.
	Credential, Endpoint, Example string
}

// Classify places err: an answer with a code the table places is that
// code, unless the status is 5xx (a failing API's words prove nothing);
// AccessDenied is on the credential setting; RateLimited waits the
// answer's Retry-After, at least a second, so a retry never hammers; a 404
// without a code is not the API's answer but a wrong endpoint. Everything
// else goes through the frame, Classify.
func (c Codes) Classify(err error) error {
	return Classify(err, c.API, func(e *CodedError) *adapter.Error {
		out := &adapter.Error{Code: c.Codes[e.Code], Err: e, Message: c.API + ": " + e.Error(), Field: c.Fields[e.Code]}
		switch {
		case e.Code == "" && e.Status == http.StatusNotFound:
			out.Code, out.Field = adapter.InvalidConfig, c.Endpoint
			out.Message += "; check that the endpoint is the API's base URL, such as " + c.Example
		case out.Code == "" || e.Status >= 500:
			out.Code = adapter.Transient
		case out.Code == adapter.AccessDenied:
			out.Field = c.Credential
		case out.Code == adapter.RateLimited:
			out.RetryAfter = max(e.RetryAfter, time.Second)
		}
		return out
	}, nil)
}

// Listing places the error of a listing: as Classify, but a NotFound from
// a listing proves no machine's absence, only an endpoint that does not
// serve the API (adapter.ListingFailed), so it is InvalidConfig on the
// endpoint setting.
func (c Codes) Listing(err error) error {
	return adapter.ListingFailed(c.Classify(err), c.Endpoint, c.API, c.Example)
}
