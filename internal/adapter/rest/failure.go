package rest

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Kind is what became of a request that brought no answer to read.
type Kind int

const (
	// Unsent: the endpoint cannot carry a request at all.
	Unsent Kind = iota + 1
	// Redirected: the endpoint answered with a redirect, not followed.
	Redirected
	// Canceled: the caller's context ended first.
	Canceled
	// Silent: the request's own bound ran out before the answer began.
	Silent
	// Cut: the answer began within the bound but did not end in it.
	Cut
	// Unreached: the transport failed (refused, unresolved, TLS, reset).
	Unreached
	// NotTheAPI: a successful answer whose body is no JSON at all.
	NotTheAPI
	// Undecodable: a successful answer that is not the JSON documented.
	Undecodable
)

// ErrRequestBound marks a request that ran out of its own bound. It is
// not adapter.ErrNoAnswer: the client sends nothing twice, so the caller's
// retry may send it again.
var ErrRequestBound = errors.New("the request ran out of its bound")

// Failure is a request that brought no answer the backend could read. Its
// text names the route template, never the URL, which the transport's own
// error quotes, query included.
type Failure struct {
	Kind          Kind
	Method, Route string
	// Status is the answer's, for NotTheAPI and Undecodable.
	Status int
	// Bound is the request's own bound, for Silent and Cut.
	Bound time.Duration
	// Err is the cause: the transport's or the context's error, or the
	// decoder's.
	Err error
	api *api
}

func (f *Failure) Error() string { return f.Classified().Message }

func (f *Failure) Unwrap() error { return f.Err }

// Endpoint is the account's endpoint as messages show it (redacted), for a
// backend's own reading of a failure.
func (f *Failure) Endpoint() string { return f.api.endpoint }

// Classified is the failure as the contract's code: what a backend's
// classify returns for it unless it knows better (a pinned certificate,
// say). A backend's own *adapter.Error found in the transport's chain (a
// dialer's refusal) is returned as it is.
func (f *Failure) Classified() *adapter.Error {
	var own *adapter.Error
	if errors.As(f.Err, &own) {
		return own
	}
	a := f.api
	switch f.Kind {
	case Unsent:
		return adapter.Errorf(adapter.InvalidConfig, "the endpoint %s cannot carry a request; set %s to a base URL such as %s",
			a.endpoint, a.setting, a.example).WithField(a.setting)
	case Redirected:
		return &adapter.Error{Code: adapter.InvalidConfig, Field: a.setting, Err: f.Err, Message: fmt.Sprintf(
			"the endpoint %s answered with a redirect, which the provider does not follow so that %s go nowhere else; "+
				"set %s to %s's base URL itself, such as %s", a.endpoint, a.credential, a.setting, a.name, a.example)}
	case Canceled:
		return &adapter.Error{Code: adapter.Transient, Err: f.Err,
			Message: "the call was canceled or its deadline passed before " + a.name + " answered " + f.Route}
	case Silent, Cut:
		what := "did not answer"
		if f.Kind == Cut {
			what = "began to answer but did not finish"
		}
		return &adapter.Error{Code: adapter.Transient, Err: f.Err,
			Message: fmt.Sprintf("%s at %s %s %s within %s", a.name, a.endpoint, what, f.Route, f.Bound)}
	case NotTheAPI:
		e := adapter.NotTheAPI(a.setting, a.name, a.endpoint, a.example, f.Method, f.Route, f.Status)
		e.Err = f.Err
		return e
	case Undecodable:
		// The body is not shown: an answer may echo what was sent.
		return &adapter.Error{Code: adapter.Transient, Err: f.Err, Message: fmt.Sprintf(
			"%s answered %s %s with HTTP %d but not with the JSON it documents (%s); check that the endpoint is %s's base URL, such as %s",
			a.name, f.Method, f.Route, f.Status, jsonProblem(f.Err), a.name, a.example)}
	}
	err := f.Err
	if adapter.CannotReach(err) {
		// Refused, unresolved, or a failed TLS handshake: nothing
		// reached the API, which plans give up on quickly
		// (adapter.ReadPolicy).
		err = adapter.MarkUnreachable(err)
	}
	return &adapter.Error{Code: adapter.Transient, Err: err,
		Message: fmt.Sprintf("%s at %s could not be reached for %s: %s", a.name, a.endpoint, f.Route, ErrorClass(f.Err))}
}

// ErrorClass names what kind of failure err is, from its chain alone,
// for log lines and messages.
func ErrorClass(err error) string {
	if errors.Is(err, ErrRequestBound) {
		return "no answer within the bound"
	}
	return adapter.ErrorClass(err)
}

func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return "not JSON"
	case errors.As(err, &typ):
		return "field " + typ.Field + " has the wrong type"
	}
	return "unreadable"
}
