package faults

import (
	"fmt"
	"time"
)

// Target is the request a contract call is judged by in an emulator's
// conformance hooks: FailNext(op, …) aims its rule at it.
type Target struct{ Method, Path string }

// ConformanceRule is the part of every emulator's conformance FailNext
// that does not depend on the API: the op's route, the count (every
// matching request until cleared when n <= 0), and the three classes that
// fail the same way on every backend, a hang (held until the client
// leaves, then never run), a connection reset before the API sees the
// request, and a drop after the commit. answer fills in
// the rest of the rule for the classes the API answers in its own way
// (server_error, rate_limited, auth_refused, locked, partial_listing),
// and returns an error for a class it does not know or cannot show,
// wrapping errors.ErrUnsupported for the latter. emulator names the
// emulator in errors.
func ConformanceRule(emulator string, routes map[string]Target, op, class string, n int, answer func(r *Rule) error) (Rule, error) {
	route, ok := routes[op]
	if !ok {
		return Rule{}, fmt.Errorf("%s emulator: no conformance op %q", emulator, op)
	}
	r := Rule{Method: route.Method, Path: route.Path, Count: max(n, 0)}
	switch class {
	case "hang":
		r.DelayIfConnected = Duration(24 * time.Hour)
		return r, nil
	case "drop_after_commit":
		r.Drop = true
		return r, nil
	case "reset":
		r.Reset = true
		return r, nil
	}
	if err := answer(&r); err != nil {
		return Rule{}, err
	}
	return r, nil
}
