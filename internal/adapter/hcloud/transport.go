package hcloud

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// authTransport resolves the token reference for every request and sets the
// Authorization header on a clone of it. The token lives only for the
// request: it is never stored in the account, so a rotated secret takes
// effect at once and no long-lived struct holds it.
//
// It also bounds every request, the whole answer included, by timeout, and
// reads the answer to its end inside that bound (answers are small JSON
// documents that hcloud-go reads whole anyway). A request that runs out of
// its bound before the answer is complete is sent once more at once, with a
// fresh bound: the wait was the bound itself. When the second attempt gets
// no answer either, the failure is requestTimeout, which is not a context
// error (the caller's context is still alive, so it is Transient, not a
// cancellation) and carries adapter.ErrNoAnswer, so the Terraform layer's
// retry does not send it again: a silent endpoint costs
// an operation two bounds, not one per retry until the timeout.
type authTransport struct {
	base     http.RoundTripper
	secrets  adapter.Secrets
	ref      string
	timeout  time.Duration
	endpoint string // for messages: the account's endpoint, redacted
	// prefix is the endpoint's own path, which a route in a message omits.
	prefix string
	// budget, when set, learns the rate budget every answer reports.
	budget *rateBudget
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	token, err := t.token(req.Context())
	if err != nil {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.send(req, token)
	var silent requestTimeout
	if !errors.As(err, &silent) || !idempotent(req.Method) || (req.Body != nil && req.Body != http.NoBody && req.GetBody == nil) {
		// A POST creates a server or starts an action: sent twice, it may
		// do so twice. Create looks for its server by key after a failure
		// instead, and an action is started again only by the caller.
		return resp, err
	}
	again := req.Clone(req.Context())
	if req.GetBody != nil {
		if again.Body, err = req.GetBody(); err != nil {
			return nil, silent
		}
	}
	resp, err = t.send(again, token)
	if errors.As(err, &silent) {
		silent.resent = true
		return nil, silent
	}
	return resp, err
}

// send makes one attempt within the bound and returns the answer read to
// its end.
func (t *authTransport) send(req *http.Request, token string) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	defer cancel()
	out := req.Clone(ctx)
	out.Header.Set("Authorization", "Bearer "+token)
	resp, err := t.base.RoundTrip(out)
	if err == nil {
		var body []byte
		body, err = io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			// Classify while the bound still stands: after cancel it
			// always looks spent.
			err = t.timedOut(req.Context(), ctx, err, true)
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		if t.budget != nil {
			t.budget.observe(resp.Header)
		}
		if resp.StatusCode < 300 && adapter.NotJSON(body) {
			// A web page, not the API: hcloud-go would fail to decode it
			// as an outage, retried until the timeout.
			path, _ := strings.CutPrefix(req.URL.Path, t.prefix)
			return nil, adapter.NotTheAPI(settingEndpoint, "the Hetzner Cloud API", t.endpoint, "https://api.hetzner.cloud/v1", req.Method, route(path), resp.StatusCode)
		}
	}
	if err != nil {
		return nil, t.timedOut(req.Context(), ctx, err, false)
	}
	return resp, nil
}

// timedOut replaces err by requestTimeout when the request's own bound, and
// not the caller, ended it.
func (t *authTransport) timedOut(parent, ctx context.Context, err error, partial bool) error {
	if parent.Err() == nil && ctx.Err() != nil {
		return requestTimeout{after: t.timeout, endpoint: t.endpoint, partial: partial}
	}
	return err
}

// refuseRedirect stops the client at a redirect. The API never redirects,
// and the transport sets the token on every request it carries, so following
// one would send the token to whatever host the redirect names, in clear
// text if it names http. The target is not repeated: it is not the user's.
func refuseRedirect(endpoint string) func(*http.Request, []*http.Request) error {
	return func(*http.Request, []*http.Request) error {
		return adapter.Errorf(adapter.InvalidConfig,
			"the endpoint %s answered with a redirect, which the provider does not follow so that the API token goes nowhere else; "+
				"set endpoint to the API's base URL itself, such as https://api.hetzner.cloud/v1", adapter.Redacted(endpoint)).WithField(settingEndpoint)
	}
}

// requestTimeout is a request that ran out of its own bound. It is not a
// net.Error with Timeout() true, so no retry keyed on network timeouts
// sends it again: the transport has already sent it a second time.
type requestTimeout struct {
	after    time.Duration
	endpoint string
	// partial: the answer began within the bound but did not end in it.
	partial bool
	// resent: the second attempt met the same silence.
	resent bool
}

func (e requestTimeout) Error() string {
	where := "the Hetzner Cloud API"
	if e.endpoint != "" {
		where += " at " + e.endpoint
	}
	what := "did not answer within " + e.after.String()
	if e.partial {
		what = "began to answer but did not finish within " + e.after.String()
	}
	if e.resent {
		what += ", nor when the request was sent once more"
	}
	return where + " " + what
}

// Unwrap puts adapter.ErrNoAnswer in the chain: the Terraform layer does not
// retry a request the transport already sent twice.
func (requestTimeout) Unwrap() error { return adapter.ErrNoAnswer }

// token resolves the reference. Its errors name the reference, never a value.
func (t *authTransport) token(ctx context.Context) (string, error) {
	token, err := adapter.ResolveField(ctx, t.secrets, "token", t.ref, "an existing secret")
	if err != nil {
		return "", err
	}
	if !validHeaderValue(token) {
		return "", adapter.UnusableSecret("token", t.ref, "contains control characters and cannot be sent as an API token", "store the token alone, without line breaks")
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

// idempotent methods may be sent once more after an unanswered attempt: a
// second read, a second PUT of the same labels or a second DELETE changes
// nothing the first did not.
func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// rateBudget is the API's request budget as its last answer reported it in
// RateLimit-Remaining and RateLimit-Limit.
type rateBudget struct {
	mu               sync.Mutex
	remaining, limit int
	seen             bool
}

func (b *rateBudget) observe(h http.Header) {
	limit, errL := strconv.Atoi(h.Get("RateLimit-Limit"))
	remaining, errR := strconv.Atoi(h.Get("RateLimit-Remaining"))
	if errL != nil || errR != nil || limit <= 0 {
		return
	}
	b.mu.Lock()
	b.remaining, b.limit, b.seen = remaining, limit, true
	b.mu.Unlock()
}

func (b *rateBudget) get() (remaining, limit int, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.remaining, b.limit, b.seen
}
