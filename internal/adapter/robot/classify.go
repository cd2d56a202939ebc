package robot

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// apiError is the webservice's error envelope (the spec's Error schema):
// {"error":{"status":…,"code":…,"message":…,"missing":[…],"invalid":[…]}},
// with max_request and interval on RATE_LIMIT_EXCEEDED.
type apiError struct {
	Status     int      `json:"status"`
	Code       string   `json:"code"`
	Message    string   `json:"message"`
	Missing    []string `json:"missing"`
	Invalid    []string `json:"invalid"`
	MaxRequest int      `json:"max_request"`
	Interval   int      `json:"interval"`
	// retryAfter is a Retry-After header, which a proxy may send.
	retryAfter time.Duration
}

func (e *apiError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("HTTP %d without a Robot error", e.Status)
	}
	return fmt.Sprintf("%s (%s, HTTP %d)", e.Message, e.Code, e.Status)
}

// parseAPIError reads an error answer. One that is not the envelope (a
// proxy's page) keeps only its status.
func parseAPIError(a rest.Answer) error {
	var env struct {
		Error *apiError `json:"error"`
	}
	out := &apiError{}
	if json.Unmarshal(a.Body, &env) == nil && env.Error != nil {
		out = env.Error
	}
	out.Status = a.Status
	out.retryAfter = a.RetryAfter()
	return out
}

// apiCodes maps Robot's error codes onto adapter codes. Codes not listed
// fall to their pattern (*_NOT_FOUND, *_FAILED) or their HTTP status, and
// anything else is Transient, so an unknown failure is retried and never
// mistaken for absence. The choices that are not obvious:
//
//   - RESET_MANUAL_ACTIVE: a technician's manual reset is pending, which
//     is the lock Robot puts on a server and which goes away by itself
//     once the technician is done (minutes): Transient, so a power change
//     waits for it within its timeout, and the error then says what was
//     retried.
//   - BOOT_BLOCKED and BOOT_ALREADY_ENABLED: the server is in a state that
//     waits for something else, on a scale of hours or for the user:
//     InvalidState, with the way out, rather than a retry until the timeout.
//   - CONFLICT and SERVER_CANCELLATION_RESERVE_NOT_POSSIBLE-like refusals of
//     a cancellation: Conflict, the server's own state forbids the write.
//   - RESET_NOT_AVAILABLE, WOL_NOT_AVAILABLE, BOOT_NOT_AVAILABLE: the server
//     has no such option at all: Unsupported, though Robot sends them as 404.
//   - MAINTENANCE, INTERNAL_ERROR, every *_FAILED: Transient.
//   - NOT_FOUND alone: Robot's answer for a URL it has no route for, and
//     for an empty listing (no keys, no products), which the calls that
//     list read before classify. Anywhere else it says the endpoint is not
//     the webservice's base URL: InvalidConfig on the endpoint, never
//     NotFound, which would drop every server of the account from state
//     because its endpoint was mistyped. Absence is SERVER_NOT_FOUND.
var apiCodes = map[string]adapter.Code{
	"UNAUTHORIZED":                  adapter.AccessDenied,
	"RATE_LIMIT_EXCEEDED":           adapter.RateLimited,
	"INVALID_INPUT":                 adapter.InvalidInput,
	"NOT_FOUND":                     adapter.InvalidConfig,
	"RESET_MANUAL_ACTIVE":           adapter.Transient,
	"BOOT_BLOCKED":                  adapter.InvalidState,
	"BOOT_ALREADY_ENABLED":          adapter.InvalidState,
	"SERVER_REVERSAL_NOT_POSSIBLE":  adapter.InvalidState,
	"CONFLICT":                      adapter.Conflict,
	"RESET_NOT_AVAILABLE":           adapter.Unsupported,
	"WOL_NOT_AVAILABLE":             adapter.Unsupported,
	"BOOT_NOT_AVAILABLE":            adapter.Unsupported,
	"METHOD_NOT_ALLOWED":            adapter.Unsupported,
	"NOT_ALLOWED":                   adapter.AccessDenied,
	"LIMIT_EXCEEDED":                adapter.QuotaExceeded,
	"ORDER_LIMIT_EXCEEDED":          adapter.QuotaExceeded,
	"PRODUCT_NOT_AVAILABLE":         adapter.InvalidState,
	"MAINTENANCE":                   adapter.Transient,
	"INTERNAL_ERROR":                adapter.Transient,
	"SERVER_CANCELLATION_NOT_FOUND": adapter.NotFound,
}

// advice is the way out appended to a message.
var advice = map[adapter.Code]string{
	adapter.AccessDenied:  "check that the account's user and password references resolve to a Robot webservice user (Settings → Web service and app settings), not the Robot login; three failed logins block the client's address for 10 minutes",
	adapter.QuotaExceeded: "the account's limit is reached; cancel unused servers or ask Hetzner to raise it",
}

// apiFields maps the webservice's parameter names onto the fields users
// write, so an INVALID_INPUT points at the attribute.
var apiFields = map[string]string{
	"server_name":    adapter.FieldName,
	"product_id":     adapter.FieldOfferID,
	"location":       adapter.FieldLocation,
	"authorized_key": settingSSHKey,
	"dist":           adapter.FieldImage,
}

// classify turns any error of the client, the transport or the context into
// an *adapter.Error with exactly one code: the REST backends' frame
// (rest.Classify), with the webservice's own answers placed by classifyAPI.
// Messages carry the webservice's own message and code, never a request
// body or a credential.
func classify(err error) error {
	return rest.Classify(err, "the Robot webservice", classifyAPI, nil)
}

func classifyAPI(e *apiError) *adapter.Error {
	out := &adapter.Error{Code: codeOf(e), Err: e, Message: e.Error()}
	if out.Code == adapter.NotFound && e.Status >= 500 {
		// A failed webservice proves nothing, whatever its body says.
		out.Code = adapter.Transient
	}
	switch {
	case e.Status >= 500:
		// It answered, so it was not slow: it failed.
		out.Message = "the Robot webservice failed: " + e.Error()
	case e.Code == "NOT_FOUND" || e.Code == "" && (e.Status == http.StatusNotFound || e.Status == http.StatusMethodNotAllowed):
		// Never NotFound: only Robot's own *_NOT_FOUND proves absence.
		out.Field = settingEndpoint
		out.Message += "; check that the account's endpoint is the Robot webservice's base URL (" + DefaultEndpoint + ")"
	}
	switch out.Code {
	case adapter.AccessDenied:
		out.Field = settingUser
	case adapter.RateLimited:
		out.RetryAfter = rateWait(e)
	case adapter.InvalidInput:
		out.Field = inputField(e)
		if names := append(append([]string{}, e.Invalid...), e.Missing...); len(names) > 0 {
			out.Message += "; parameters at fault: " + strings.Join(names, ", ")
		}
	}
	if a := advice[out.Code]; a != "" {
		out.Message += "; " + a
	}
	return out
}

// codeOf places a Robot error: its code, then the code's pattern, then the
// HTTP status.
func codeOf(e *apiError) adapter.Code {
	if c, ok := apiCodes[e.Code]; ok {
		return c
	}
	switch {
	case strings.HasSuffix(e.Code, "_NOT_FOUND"):
		return adapter.NotFound
	case strings.HasSuffix(e.Code, "_FAILED"):
		return adapter.Transient
	case strings.HasSuffix(e.Code, "_NOT_AVAILABLE"):
		return adapter.Unsupported
	case e.Code != "":
		// A code Robot added since: retried, never taken for absence.
		return adapter.Transient
	}
	// No Robot error at all: a proxy or a wrong endpoint answered.
	switch e.Status {
	case http.StatusUnauthorized:
		return adapter.AccessDenied
	case http.StatusTooManyRequests:
		return adapter.RateLimited
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		return adapter.InvalidConfig
	case http.StatusForbidden:
		// Robot sends its rate limit as 403 with a body; a bare 403 is a
		// proxy or a blocked address.
		return adapter.AccessDenied
	case http.StatusConflict:
		return adapter.Conflict
	case http.StatusBadRequest:
		return adapter.InvalidInput
	}
	return adapter.Transient
}

// rateWait is how long until one more request is allowed: Robot counts
// max_request requests per interval seconds and refills as the window
// slides, so a request comes back every interval/max_request seconds. A
// Retry-After header wins. At least a second.
func rateWait(e *apiError) time.Duration {
	if e.retryAfter > 0 {
		return e.retryAfter
	}
	if e.Interval <= 0 {
		return time.Second
	}
	per := time.Duration(e.Interval) * time.Second
	if e.MaxRequest > 0 {
		per /= time.Duration(e.MaxRequest)
	}
	return max(per.Round(time.Second), time.Second)
}

// inputField is the first invalid, else missing, parameter, as the user's
// attribute when it maps onto one.
func inputField(e *apiError) string {
	names := append(append([]string{}, e.Invalid...), e.Missing...)
	if len(names) == 0 {
		return ""
	}
	n := strings.TrimSuffix(names[0], "[]")
	if f, ok := apiFields[n]; ok {
		return f
	}
	return n
}

// fail classifies err and prefixes what was being done, e.g. "claim server
// 321". The prefix must not contain user data or secrets.
func fail(what string, err error) error { return adapter.Within(what, classify(err)) }
