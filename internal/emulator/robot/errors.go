package robot

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// apiError is an error answer in Robot's shape:
// {"error":{"status":N,"code":"…","message":"…","missing":[…]|null,"invalid":[…]|null}}.
// Rate limits add max_request and interval.
type apiError struct {
	status  int
	code    string
	message string
	missing []string
	invalid []string
	// maxRequest and interval (seconds) go with RATE_LIMIT_EXCEEDED only.
	maxRequest, interval int
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

// The codes Robot answers with, by the status it sends each with.
const (
	codeUnauthorized         = "UNAUTHORIZED"           // 401
	codeRateLimitExceeded    = "RATE_LIMIT_EXCEEDED"    // 403
	codeInvalidInput         = "INVALID_INPUT"          // 400
	codeServerNotFound       = "SERVER_NOT_FOUND"       // 404
	codeNotFound             = "NOT_FOUND"              // 404
	codeResetNotAvailable    = "RESET_NOT_AVAILABLE"    // 404
	codeResetManualActive    = "RESET_MANUAL_ACTIVE"    // 409
	codeResetFailed          = "RESET_FAILED"           // 500
	codeBootAlreadyEnabled   = "BOOT_ALREADY_ENABLED"   // 409
	codeBootNotAvailable     = "BOOT_NOT_AVAILABLE"     // 404
	codeBootActivationFailed = "BOOT_ACTIVATION_FAILED" // 500
	codeWolNotAvailable      = "WOL_NOT_AVAILABLE"      // 404
	codeWolFailed            = "WOL_FAILED"             // 500
	codeKeyAlreadyExists     = "KEY_ALREADY_EXISTS"     // 409
	codeProductNotFound      = "PRODUCT_NOT_FOUND"      // 404
	codeConflict             = "CONFLICT"               // 409
	codeInternalError        = "INTERNAL_ERROR"         // 500
	codeMaintenance          = "MAINTENANCE"            // 503
)

func missingInput(fields ...string) *apiError {
	return &apiError{status: http.StatusBadRequest, code: codeInvalidInput, message: "invalid input", missing: fields}
}

// invalidInput names the fields whose values Robot refuses; message says
// which value and why, since Robot's own "invalid input" says neither.
func invalidInput(message string, fields ...string) *apiError {
	return &apiError{status: http.StatusBadRequest, code: codeInvalidInput, message: message, invalid: fields}
}

func serverNotFound(number int) *apiError {
	return &apiError{status: http.StatusNotFound, code: codeServerNotFound, message: fmt.Sprintf("server with id %d not found", number)}
}

func notFound(format string, args ...any) *apiError {
	return &apiError{status: http.StatusNotFound, code: codeNotFound, message: fmt.Sprintf(format, args...)}
}

func failure(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

var errUnauthorized = &apiError{status: http.StatusUnauthorized, code: codeUnauthorized, message: "Unable to authenticate"}

func (e *apiError) body() map[string]any {
	inner := map[string]any{
		"status": e.status, "code": e.code, "message": e.message,
		"missing": nullable(e.missing), "invalid": nullable(e.invalid),
	}
	if e.code == codeRateLimitExceeded {
		inner["max_request"], inner["interval"] = e.maxRequest, e.interval
	}
	return map[string]any{"error": inner}
}

// nullable renders an empty list as null, as Robot does outside
// INVALID_INPUT.
func nullable(s []string) any {
	if len(s) == 0 {
		return nil
	}
	return s
}

func writeError(w http.ResponseWriter, e *apiError) { writeJSON(w, e.status, e.body()) }

// Scripted rate limits say this much of their budget, as Robot's GET
// /server limit does.
const (
	scriptedMaxRequest = 200
	scriptedInterval   = 3600
)

// errorBody renders failures scripted through the faults middleware in
// Robot's shape; a missing code is named from the status as Robot names it.
func errorBody(status int, code, message string) []byte {
	if code == "" || code == strings.ToLower(code) {
		code = codeForStatus(status)
	}
	if message == "" || strings.HasPrefix(message, "injected failure: ") {
		message = "injected failure: " + code
	}
	e := &apiError{status: status, code: code, message: message}
	if code == codeRateLimitExceeded {
		e.maxRequest, e.interval = scriptedMaxRequest, scriptedInterval
	}
	b, _ := json.Marshal(e.body())
	return b
}

// codeForStatus names a status the way Robot does.
func codeForStatus(status int) string {
	switch status {
	case 400:
		return codeInvalidInput
	case 401:
		return codeUnauthorized
	case 403:
		return codeRateLimitExceeded
	case 404:
		return codeNotFound
	case 409:
		return codeConflict
	case 503:
		return codeMaintenance
	}
	return codeInternalError
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal((&apiError{status: 500, code: codeInternalError, message: "encoding response: " + err.Error()}).body())
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
