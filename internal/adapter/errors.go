package adapter

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Code is the one class every backend error is mapped to by its adapter's
// classify function. The Terraform layer decides retry, removal from state
// and the diagnostic from the code alone.
type Code string

// The codes. Anything an adapter cannot place is Transient, so that an
// unknown failure is retried rather than mistaken for absence.
const (
	NotFound      Code = "NotFound"
	InvalidConfig Code = "InvalidConfig"
	InvalidInput  Code = "InvalidInput"
	InvalidState  Code = "InvalidState"
	Unsupported   Code = "Unsupported"
	AccessDenied  Code = "AccessDenied"
	Conflict      Code = "Conflict"
	RateLimited   Code = "RateLimited"
	QuotaExceeded Code = "QuotaExceeded"
	Transient     Code = "Transient"
)

// Codes lists every code, for table tests that must cover them all.
var Codes = []Code{NotFound, InvalidConfig, InvalidInput, InvalidState, Unsupported,
	AccessDenied, Conflict, RateLimited, QuotaExceeded, Transient}

// Error is a classified backend error. Message must never contain a secret or
// user data: it reaches diagnostics verbatim.
type Error struct {
	Code    Code
	Message string
	// Field names the request or config field at fault ("offer_id",
	// "token"), so the Terraform layer can point at the attribute.
	Field string
	// RetryAfter is the backend's own hint, for RateLimited.
	RetryAfter time.Duration
	// Err is the underlying error, kept for errors.Is/As; it is not printed
	// by Error() because backend errors may echo request bodies.
	Err error
}

func (e *Error) Error() string {
	if e.Message == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds a classified error.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithField sets the field at fault and returns e.
func (e *Error) WithField(field string) *Error { e.Field = field; return e }

// Within is a classified error with what was being done put before its
// message ("claim server 321: …"), the code, field and retry-after kept
// and the original in the chain; nil for nil. An adapter's fail is
// Within(what, classify(err)). what must not contain user data or
// secrets.
func Within(what string, classified error) error {
	if classified == nil {
		return nil
	}
	var e *Error
	if !errors.As(classified, &e) {
		return &Error{Code: Transient, Err: classified, Message: what + ": " + classified.Error()}
	}
	out := *e
	out.Message = what + ": " + e.Message
	if out.Err == nil {
		out.Err = e
	}
	return &out
}

// CodeOf returns the code of err. A context cancellation or deadline is
// Transient (the caller's own context decides whether to go on); an error
// that carries no code is Transient, so it is never taken for absence.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Transient
}

// MessageOf is the message of a classified error, without its code and
// field, for a caller that words its own; an unclassified error's text.
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

// WithFieldOf is err naming field: the classified error it carries, or,
// for an error that carries none, a Transient one (as CodeOf reads it) with
// its text.
func WithFieldOf(err error, field string) *Error {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Code: Transient, Message: err.Error(), Err: err}
	}
	return e.WithField(field)
}

// Is reports whether err is classified as code.
func Is(err error, code Code) bool { return err != nil && CodeOf(err) == code }

// IsNotFound reports authoritative absence.
func IsNotFound(err error) bool { return Is(err, NotFound) }

// FieldOf returns the field an error names, or "".
func FieldOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// RetryAfterOf returns the backend's retry hint, or 0.
func RetryAfterOf(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// ErrNoAnswer marks a Transient failure where the backend said nothing at all:
// the request's own bound (rule 7, honour the context, in the package
// documentation) ran out before an answer came, and the adapter already sent
// it once more, with the same silence. It is in the chain of such errors for
// errors.Is; an adapter's message says which endpoint and which bound.
var ErrNoAnswer = errors.New("the backend did not answer within the request's bound")

// NoAnswer reports whether err is a request the backend never answered.
func NoAnswer(err error) bool { return errors.Is(err, ErrNoAnswer) }

// Canceled reports whether err comes from the caller's own context.
func Canceled(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// ErrUnreachable marks a failure to reach the backend at all: the
// connection was refused, the endpoint's host name did not resolve, or the
// TLS handshake failed (see CannotReach). Each adapter's classify puts it in
// the chain (MarkUnreachable) beside the transport's own error, keeping the
// code it gives such failures (Transient, or InvalidConfig for a
// certificate the account's settings must fix). Reads made while Terraform
// plans give such an endpoint a short budget of their own (ReadPolicy);
// applies retry it like any Transient failure.
var ErrUnreachable = errors.New("the endpoint could not be reached")

// Unreachable reports whether err is a failure to reach the backend at all.
func Unreachable(err error) bool { return errors.Is(err, ErrUnreachable) }

// MarkUnreachable returns err with ErrUnreachable in its chain beside it,
// for the Err of a classified error; err's own text is kept, and nil stays
// nil.
func MarkUnreachable(err error) error {
	if err == nil || Unreachable(err) {
		return err
	}
	return unreachable{err}
}

type unreachable struct{ err error }

func (u unreachable) Error() string   { return u.err.Error() }
func (u unreachable) Unwrap() []error { return []error{ErrUnreachable, u.err} }
