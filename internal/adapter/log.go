package adapter

import "context"

// Logger receives what an adapter and the contract's waits and retries have
// to say. The provider hands one to every adapter through Env.Log and wires
// it to Terraform's logs (a subsystem per adapter kind); the contract stays
// free of the plugin SDKs. Fields carry only what is safe to print: method,
// route template, status, duration, attempt, request id, ids and states;
// never a body, a header value, user data or a query that can hold a secret.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Info(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
}

// NopLogger drops every line; it is what an Env without a Logger gets.
type NopLogger struct{}

// Debug drops the line.
func (NopLogger) Debug(context.Context, string, map[string]any) {}

// Info drops the line.
func (NopLogger) Info(context.Context, string, map[string]any) {}

// Warn drops the line.
func (NopLogger) Warn(context.Context, string, map[string]any) {}

// KindLogger is a Logger that can give each adapter kind lines of its own:
// the provider's is one, and gives each kind a tflog subsystem, whose level
// can be set apart from the rest (TF_LOG_PROVIDER_COMPUTE_HCLOUD).
// Accounts.Open hands each adapter the logger for its kind.
type KindLogger interface {
	Logger
	ForKind(kind string) Logger
}

// LoggerFor returns the logger for one adapter kind: l's own for that kind
// when l is a KindLogger, l itself otherwise, NopLogger for nil.
func LoggerFor(l Logger, kind string) Logger {
	switch l := l.(type) {
	case nil:
		return NopLogger{}
	case KindLogger:
		return l.ForKind(kind)
	}
	return l
}

// The contract's own waits and retries (Retry, WaitFor) take their logger
// from the context rather than from a parameter: they are called from every
// resource package and from adapters with the context the framework gave
// the operation, so one line where an operation starts
// (ctx = adapter.WithLogger(ctx, ...)) reaches every retry and wait below
// it, and no signature changes. A context without one logs nothing.
type loggerKey struct{}

// WithLogger returns ctx carrying l for Retry and WaitFor; a nil l leaves
// ctx as it is.
func WithLogger(ctx context.Context, l Logger) context.Context {
	if l == nil {
		return ctx
	}
	return context.WithValue(ctx, loggerKey{}, l)
}

// LoggerFrom returns the logger ctx carries, NopLogger when none.
func LoggerFrom(ctx context.Context) Logger {
	if l, ok := ctx.Value(loggerKey{}).(Logger); ok {
		return l
	}
	return NopLogger{}
}

// ReportState tells the WaitFor whose check is running which state the
// check saw, e.g. "pending (raw: initializing)", so that a long wait can say
// what it waits on; outside a WaitFor check it does nothing. It travels in
// the check's context so that WaitFor's signature, and its callers, stay as
// they are. The state must be safe to print: a normalized state and the
// backend's raw status, never user input.
func ReportState(ctx context.Context, state string) {
	if s, ok := ctx.Value(stateKey{}).(*seenState); ok {
		s.state = state
	}
}

type stateKey struct{}

// seenState is what the running check last reported. WaitFor runs its
// checks one at a time, so it needs no lock.
type seenState struct{ state string }
