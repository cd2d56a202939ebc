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
