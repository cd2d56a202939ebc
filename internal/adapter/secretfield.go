package adapter

import (
	"context"
	"errors"
)

// ResolveField resolves ref, the secret reference field holds (an
// account setting such as "token", or a request field such as
// "files[0].content"), for one use; the adapters call it on every request
// and keep the value no longer (rule 6, no secret leaves). Its error is
// InvalidConfig on field and wraps the resolver's, so Unresolved still
// tells a secret that is not here from a malformed reference. Its message
// names field and the reference (Redacted: a secret pasted where the
// reference belongs is not repeated), never a value: field, then the
// resolver's own message, which says what is missing (the variable is not
// set, the file cannot be read), or, from a resolver that gives none, that
// the reference cannot be resolved and should name what names says
// ("an existing secret", "the private key").
func ResolveField(ctx context.Context, secrets Secrets, field, ref, names string) (string, error) {
	v, err := secrets.Resolve(ctx, ref)
	if err == nil {
		return v, nil
	}
	msg := "secret reference " + Redacted(ref) + " cannot be resolved; check that it names " + names
	var e *Error
	if errors.As(err, &e) {
		msg = e.Message
	}
	return "", &Error{Code: InvalidConfig, Field: field, Err: err, Message: field + ": " + msg}
}

// UnusableSecret is the InvalidConfig error on field for a secret that
// resolved but cannot be sent as it is: problem says what is wrong with
// the value and way what to store instead, neither repeating it.
func UnusableSecret(field, ref, problem, way string) *Error {
	return Errorf(InvalidConfig, "%s: the value behind secret reference %s %s; %s", field, Redacted(ref), problem, way).WithField(field)
}
