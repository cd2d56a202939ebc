package hcloud

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// authTransport resolves the token reference for every request and sets the
// Authorization header on a clone of it. The token lives only for the
// request: it is never stored in the account, so a rotated secret takes
// effect at once and no long-lived struct holds it.
//
// It also bounds every request, body included, by timeout. A request that
// runs out of its own time fails with requestTimeout, which is not a context
// error: the caller's context is still alive, so the failure is Transient and
// retried, unlike a cancellation by the caller.
type authTransport struct {
	base    http.RoundTripper
	secrets adapter.Secrets
	ref     string
	timeout time.Duration
	logger  *slog.Logger
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	token, err := t.token(req.Context())
	if err != nil {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, err
	}
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	out := req.Clone(ctx)
	out.Header.Set("Authorization", "Bearer "+token)
	start := time.Now()
	resp, err := t.base.RoundTrip(out)
	t.log(req, resp, err, time.Since(start))
	if err != nil {
		// Classify before cancelling: afterwards the bound always looks spent.
		err = t.timedOut(req.Context(), ctx, err)
		cancel()
		return nil, err
	}
	resp.Body = &boundBody{ReadCloser: resp.Body, t: t, parent: req.Context(), ctx: ctx, cancel: cancel}
	return resp, nil
}

// timedOut replaces err by requestTimeout when the request's own bound, and
// not the caller, ended it.
func (t *authTransport) timedOut(parent, ctx context.Context, err error) error {
	if parent.Err() == nil && ctx.Err() != nil {
		return requestTimeout{after: t.timeout}
	}
	return err
}

// boundBody keeps the request's bound until the body is read and closed.
type boundBody struct {
	io.ReadCloser
	t           *authTransport
	parent, ctx context.Context
	cancel      context.CancelFunc
}

func (b *boundBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = b.t.timedOut(b.parent, b.ctx, err)
	}
	return n, err
}

func (b *boundBody) Close() error {
	defer b.cancel()
	return b.ReadCloser.Close()
}

// refuseRedirect stops the client at a redirect. The API never redirects,
// and the transport sets the token on every request it carries, so following
// one would send the token to whatever host the redirect names, in clear
// text if it names http. The target is not repeated: it is not the user's.
func refuseRedirect(endpoint string) func(*http.Request, []*http.Request) error {
	return func(*http.Request, []*http.Request) error {
		return adapter.Errorf(adapter.InvalidConfig,
			"the endpoint %s answered with a redirect, which the provider does not follow so that the API token goes nowhere else; "+
				"set endpoint to the API's base URL itself, such as https://api.hetzner.cloud/v1", adapter.Redacted(endpoint)).WithField("endpoint")
	}
}

// requestTimeout is a net.Error with Timeout() true, so hcloud-go's own
// retry treats it like any other network timeout.
type requestTimeout struct{ after time.Duration }

func (e requestTimeout) Error() string {
	return fmt.Sprintf("the Hetzner Cloud API did not answer within %s", e.after)
}
func (requestTimeout) Timeout() bool   { return true }
func (requestTimeout) Temporary() bool { return true }

// token resolves the reference. Its errors name the reference, never a value.
func (t *authTransport) token(ctx context.Context) (string, error) {
	token, err := t.secrets.Resolve(ctx, t.ref)
	if err != nil {
		if e, ok := err.(*adapter.Error); ok {
			return "", &adapter.Error{Code: adapter.InvalidConfig, Field: "token", Err: err,
				Message: "token: " + e.Message}
		}
		return "", &adapter.Error{Code: adapter.InvalidConfig, Field: "token", Err: err,
			Message: "token: secret reference " + t.ref + " cannot be resolved; check that it names an existing secret"}
	}
	if !validHeaderValue(token) {
		return "", adapter.Errorf(adapter.InvalidConfig,
			"token: the value behind secret reference %s contains control characters and cannot be sent as an API token; store the token alone, without line breaks", t.ref).WithField("token")
	}
	return token, nil
}

// validHeaderValue mirrors net/http's rule for header values, checked here
// so the failure names the reference instead of surfacing as a transport
// error.
func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// log records one line per request, never headers, query values or bodies
// beyond the path: bodies carry user data and headers carry the token.
func (t *authTransport) log(req *http.Request, resp *http.Response, err error, took time.Duration) {
	if !t.logger.Enabled(req.Context(), slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", req.Method),
		// The endpoint's base path is part of it and may hold a credential.
		slog.String("path", adapter.RedactedPath(req.URL.Path)),
		slog.Duration("took", took),
	}
	if resp != nil {
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
		if id := resp.Header.Get("X-Correlation-Id"); id != "" {
			attrs = append(attrs, slog.String("correlation_id", id))
		}
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", "transport error"))
	}
	t.logger.LogAttrs(req.Context(), slog.LevelDebug, "hcloud request", attrs...)
}
