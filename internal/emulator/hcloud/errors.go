package hcloud

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// apiError is an error answer in the API's shape:
// {"error":{"code":..,"message":..,"details":{..}}}.
type apiError struct {
	status  int
	code    string
	message string
	details any
}

func (e *apiError) Error() string { return e.message + " (" + e.code + ")" }

// fieldError is one entry of details.fields.
type fieldError struct {
	Name     string   `json:"name"`
	Messages []string `json:"messages,omitempty"`
}

const missingField = "Missing data for required field."

func invalidFields(fields ...fieldError) *apiError {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = "'" + f.Name + "'"
	}
	msg := "invalid input in field " + names[0]
	if len(fields) == 1 && len(fields[0].Messages) > 0 {
		msg += ": " + fields[0].Messages[0]
	} else if len(fields) > 1 {
		msg = "invalid input in fields " + strings.Join(names, ", ")
	}
	return &apiError{status: http.StatusUnprocessableEntity, code: "invalid_input", message: msg,
		details: map[string]any{"fields": fields}}
}

// invalidInput is the real API's answer to a reference it cannot resolve,
// such as an unknown server type: a bare message and empty details.
func invalidInput(format string, args ...any) *apiError {
	return &apiError{status: http.StatusUnprocessableEntity, code: "invalid_input", message: fmt.Sprintf(format, args...)}
}

func notFound(kind string, id int64) *apiError {
	return &apiError{status: http.StatusNotFound, code: "not_found", message: fmt.Sprintf("%s with ID '%d' not found", kind, id)}
}

func uniqueness(message, field string) *apiError {
	return &apiError{status: http.StatusConflict, code: "uniqueness_error", message: message,
		details: map[string]any{"fields": []fieldError{{Name: field}}}}
}

func jsonError(err error) *apiError {
	return &apiError{status: http.StatusBadRequest, code: "json_error", message: "invalid JSON in request body: " + err.Error()}
}

func locked(kind string, id int64) *apiError {
	return &apiError{status: http.StatusLocked, code: "locked", message: fmt.Sprintf("%s %d is locked by a running action", kind, id)}
}

var errUnauthorized = &apiError{status: http.StatusUnauthorized, code: "unauthorized", message: "unable to authenticate"}

func writeError(w http.ResponseWriter, e *apiError) {
	details := e.details
	if details == nil {
		details = map[string]any{}
	}
	writeJSON(w, e.status, map[string]any{"error": map[string]any{
		"code": e.code, "message": e.message, "details": details,
	}})
}

// errorBody renders failures scripted through the faults middleware. A
// missing code is filled in from the status the way the API names it.
func errorBody(status int, code, message string) []byte {
	if code == "" {
		code = codeForStatus(status)
	}
	if message == "" {
		message = code
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"code": code, "message": message, "details": map[string]any{},
	}})
	return b
}

// codeForStatus names a status as the Hetzner Cloud API does where it
// differs from the common names.
func codeForStatus(status int) string {
	switch status {
	case 400:
		return "json_error"
	case 405:
		return "method_not_allowed"
	case 500:
		return "server_error"
	}
	if code := faults.DefaultCode(status); code != "unknown_error" {
		return code
	}
	return "server_error"
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = errorBody(http.StatusInternalServerError, "server_error", "encoding response: "+err.Error())
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// withLocked runs fn under the emulator's lock with the object lookup finds
// for the request, or answers lookup's error: the start of every handler
// that acts on one server or key.
func withLocked[T any](e *Emulator, w http.ResponseWriter, r *http.Request, lookup func(*http.Request) (T, *apiError), fn func(T)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, err := lookup(r)
	if err != nil {
		writeError(w, err)
		return
	}
	fn(v)
}
