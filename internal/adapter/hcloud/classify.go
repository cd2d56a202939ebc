package hcloud

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"time"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// apiCodes maps the Hetzner Cloud API's error codes onto adapter codes.
// Codes not listed are Transient, so an unknown failure is retried and never
// mistaken for absence. The choices that are not obvious:
//
//   - conflict and locked are retryable by the API's own description ("the
//     resource has changed during the request, please retry", "there is
//     already an Action running"): Transient.
//   - uniqueness_error means a name is taken; retrying cannot help: Conflict.
//     Create looks the key up first, so a name taken by our own earlier
//     attempt never surfaces as this error.
//   - resource_unavailable ("not available for order") is InvalidState: stock
//     returns on a scale of hours or days, longer than any create timeout, so
//     the user is better served at once with "choose another offer or
//     location" than after a long retry. Validate reports it at plan time.
//   - placement_error is a failed scheduling attempt of the host that the
//     next attempt usually gets past: Transient.
//   - maintenance is temporary by nature: Transient.
var apiCodes = map[hcloud.ErrorCode]adapter.Code{
	hcloud.ErrorCodeNotFound:              adapter.NotFound,
	hcloud.ErrorCodeUnauthorized:          adapter.AccessDenied,
	"token_readonly":                      adapter.AccessDenied,
	hcloud.ErrorCodeForbidden:             adapter.AccessDenied,
	hcloud.ErrorCodeInvalidInput:          adapter.InvalidInput,
	hcloud.ErrorCodeJSONError:             adapter.InvalidInput,
	hcloud.ErrorCodeInvalidServerType:     adapter.InvalidInput,
	hcloud.ErrorCodeUniquenessError:       adapter.Conflict,
	hcloud.ErrorCodeConflict:              adapter.Transient,
	hcloud.ErrorCodeLocked:                adapter.Transient,
	hcloud.ErrorCodeRateLimitExceeded:     adapter.RateLimited,
	hcloud.ErrorCodeResourceLimitExceeded: adapter.QuotaExceeded,
	hcloud.ErrorCodeResourceUnavailable:   adapter.InvalidState,
	hcloud.ErrorCodePlacementError:        adapter.Transient,
	hcloud.ErrorCodeServerNotStopped:      adapter.InvalidState,
	hcloud.ErrorCodeProtected:             adapter.InvalidState,
	hcloud.ErrorCodeResourceLocked:        adapter.InvalidState,
	hcloud.ErrorUnsupportedError:          adapter.Unsupported,
	hcloud.ErrorDeprecatedAPIEndpoint:     adapter.Unsupported,
	"method_not_allowed":                  adapter.Unsupported,
	hcloud.ErrorCodeMaintenance:           adapter.Transient,
	hcloud.ErrorCodeTimeout:               adapter.Transient,
	hcloud.ErrorCodeServiceError:          adapter.Transient,
	hcloud.ErrorCodeServerError:           adapter.Transient,
	hcloud.ErrorCodeBadGateway:            adapter.Transient,
	hcloud.ErrorCodeUnknownError:          adapter.Transient,
	hcloud.ErrorCodeRobotUnavailable:      adapter.Transient,
	"unavailable":                         adapter.Transient,
}

// advice is the way out appended to an API error's message.
var advice = map[hcloud.ErrorCode]string{
	hcloud.ErrorCodeUnauthorized:          "the API rejected the token; check that the account's token reference resolves to a valid API token of the project",
	"token_readonly":                      "the token is read-only; create a Read & Write token in the project and point the token reference at it",
	hcloud.ErrorCodeForbidden:             "the token may not do this; use a Read & Write token of the project",
	hcloud.ErrorCodeUniquenessError:       "the name is taken in this project; import the existing server or choose another name",
	hcloud.ErrorCodeResourceLimitExceeded: "the project's limit is reached; delete unused servers or ask Hetzner to raise the limit",
	hcloud.ErrorCodeResourceUnavailable:   "choose another offer or location, or apply again later",
	hcloud.ErrorCodeProtected:             "the server is protected; remove its protection in the Hetzner Cloud console first",
	hcloud.ErrorCodeResourceLocked:        "the server is locked by Hetzner; contact Hetzner support",
	hcloud.ErrorCodeServerNotStopped:      "power the server off first",
}

// apiFields maps the API's request field names onto CreateRequest fields,
// so an invalid_input points at the attribute the user wrote.
var apiFields = map[string]string{
	"server_type": adapter.FieldOfferID,
	"image":       adapter.FieldImage,
	"location":    adapter.FieldLocation,
	"datacenter":  adapter.FieldLocation,
	"name":        adapter.FieldName,
	"labels":      adapter.FieldLabels,
	"user_data":   adapter.FieldUserData,
}

// classify turns any error from hcloud-go, the transport or the context into
// an *adapter.Error with exactly one code. Messages carry the API's own
// message and code, never a request body or the token; the original error is
// kept in Err for errors.Is/As only.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var classified *adapter.Error
	if errors.As(err, &classified) {
		return classified
	}
	if adapter.Canceled(err) {
		return &adapter.Error{Code: adapter.Transient, Err: err,
			Message: "the call was canceled or its deadline passed before the Hetzner Cloud API answered"}
	}
	var apiErr hcloud.Error
	if errors.As(err, &apiErr) {
		return classifyAPI(apiErr, err)
	}
	var actionErr hcloud.ActionError
	if errors.As(err, &actionErr) {
		code, ok := apiCodes[hcloud.ErrorCode(actionErr.Code)]
		if !ok {
			code = adapter.Transient
		}
		return &adapter.Error{Code: code, Err: err,
			Message: fmt.Sprintf("the action failed: %s (%s)", actionErr.Message, actionErr.Code)}
	}
	var argErr hcloud.ArgumentError
	if errors.As(err, &argErr) {
		return &adapter.Error{Code: adapter.InvalidInput, Err: err, Message: argErr.Error()}
	}
	if errors.Is(err, hcloud.ErrStatusCode) {
		return classifyStatus(statusOf(err), err)
	}
	var silent requestTimeout
	if errors.As(err, &silent) {
		// Keeps adapter.ErrNoAnswer in the chain through err.
		return &adapter.Error{Code: adapter.Transient, Err: err, Message: silent.Error()}
	}
	if adapter.CannotReach(err) {
		// Refused, unresolved, or a failed TLS handshake: nothing reached
		// the API, which plans give up on quickly (adapter.ReadPolicy).
		return &adapter.Error{Code: adapter.Transient, Err: adapter.MarkUnreachable(err),
			Message: "the Hetzner Cloud API could not be reached (" + adapter.ErrorClass(err) + "): " + describeFailure(err)}
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return &adapter.Error{Code: adapter.Transient, Err: err,
			Message: "the Hetzner Cloud API could not be reached or did not answer: " + describeFailure(err)}
	}
	return &adapter.Error{Code: adapter.Transient, Err: err,
		Message: "unexpected failure talking to the Hetzner Cloud API: " + describeFailure(err)}
}

// describeFailure is a transport error's text with the request's URL
// redacted: net/http quotes the whole URL, and the endpoint's path may hold
// a credential.
func describeFailure(err error) string {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return urlErr.Op + " " + strconv.Quote(adapter.Redacted(urlErr.URL)) + ": " + urlErr.Err.Error()
	}
	return err.Error()
}

func classifyAPI(apiErr hcloud.Error, err error) error {
	code, ok := apiCodes[apiErr.Code]
	if !ok {
		code = adapter.Transient
	}
	msg := fmt.Sprintf("%s (%s)", apiErr.Message, apiErr.Code)
	if a := advice[apiErr.Code]; a != "" {
		msg += "; " + a
	}
	out := &adapter.Error{Code: code, Err: err}
	var header http.Header
	if resp := apiErr.Response(); resp != nil && resp.Response != nil {
		header = resp.Header
		if resp.StatusCode >= 500 {
			// It answered, so it was not slow: it failed.
			msg = fmt.Sprintf("the Hetzner Cloud API failed (HTTP %d %s): %s", resp.StatusCode, apiErr.Code, apiErr.Message)
		}
		if id := header.Get("X-Correlation-Id"); id != "" {
			msg += " [correlation id " + id + "]"
		}
	}
	switch apiErr.Code {
	case hcloud.ErrorCodeUnauthorized, "token_readonly":
		out.Field = "token"
	case hcloud.ErrorCodeInvalidServerType:
		out.Field = adapter.FieldOfferID
	case hcloud.ErrorCodeInvalidInput:
		if d, ok := apiErr.Details.(hcloud.ErrorDetailsInvalidInput); ok && len(d.Fields) > 0 {
			out.Field = d.Fields[0].Name
			if f, ok := apiFields[out.Field]; ok {
				out.Field = f
			}
		}
	case hcloud.ErrorCodeRateLimitExceeded:
		out.RetryAfter = retryAfter(header, time.Now())
	}
	out.Message = msg
	return out
}

// classifyStatus places an error response without a JSON error body, which
// the API itself never sends: it comes from a proxy or a wrong endpoint.
func classifyStatus(status int, err error) error {
	out := &adapter.Error{Code: adapter.Transient, Err: err,
		Message: fmt.Sprintf("the endpoint answered HTTP %d without an API error", status)}
	if status >= 500 {
		out.Message = fmt.Sprintf("the endpoint failed (HTTP %d, without an API error: the API or a proxy in front of it failed)", status)
	}
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		out.Code = adapter.AccessDenied
		out.Message += "; check the account's token reference and endpoint"
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusGone:
		// Never NotFound: only the API's own not_found proves absence.
		out.Code, out.Field = adapter.InvalidConfig, settingEndpoint
		out.Message += "; check that the account's endpoint is the base URL of the Hetzner Cloud API (https://api.hetzner.cloud/v1)"
	case http.StatusTooManyRequests:
		out.Code = adapter.RateLimited
	}
	return out
}

var statusSuffix = regexp.MustCompile(`(\d{3})$`)

// statusOf reads the status hcloud-go puts at the end of an ErrStatusCode
// error, the only place it keeps it.
func statusOf(err error) int {
	m := statusSuffix.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// retryAfter reads the API's rate limit headers. RateLimit-Reset is when the
// whole budget is back; the API refills it one request at a time, so the
// wait for the next request is the time to reset divided by the requests
// missing from the budget, at least a second. A Retry-After header, if a
// proxy sends one, wins. Times are measured against the response's own Date
// header when present, so a skewed local clock does not distort the wait.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if secs, err := strconv.Atoi(h.Get("Retry-After")); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second
	}
	reset, err := strconv.ParseInt(h.Get("RateLimit-Reset"), 10, 64)
	if err != nil {
		return 0
	}
	if date, err := http.ParseTime(h.Get("Date")); err == nil {
		now = date
	}
	wait := time.Unix(reset, 0).Sub(now)
	if wait <= 0 {
		return time.Second
	}
	limit, errL := strconv.Atoi(h.Get("RateLimit-Limit"))
	remaining, errR := strconv.Atoi(h.Get("RateLimit-Remaining"))
	if errL == nil && errR == nil && limit > remaining && remaining >= 0 {
		wait /= time.Duration(limit - remaining)
	}
	return max(wait.Round(time.Second), time.Second)
}

// fail classifies err and prefixes what was being done, e.g. "create server
// web-1". The prefix must not contain user data or secrets.
func fail(what string, err error) error { return adapter.Within(what, classify(err)) }

// failListing is fail for a listing. The API never answers a listing with
// not_found; a base URL that is not the API (one without /v1, say) answers
// every path so. That is a wrong endpoint, never absence
// (adapter.ListingFailed).
func failListing(what string, err error) error {
	return adapter.ListingFailed(fail(what, err), settingEndpoint, "the Hetzner Cloud API", "https://api.hetzner.cloud/v1")
}
