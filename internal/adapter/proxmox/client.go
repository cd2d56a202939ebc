package proxmox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// DefaultRequestTimeout bounds one API request, its whole answer included.
// PVE answers reads in milliseconds and starts every long operation as a
// task (answering its UPID at once), so no request needs longer.
// adapter.Env.RequestTimeout replaces it.
const DefaultRequestTimeout = 10 * time.Second

// client is the thin PVE API client: one request per call, never sent
// twice (adapter.Retry decides about another attempt), every request within
// its own bound, the token resolved for the request alone.
type client struct {
	base      string // endpoint + /api2/json
	http      *http.Client
	secrets   adapter.Secrets
	tokenRef  string
	timeout   time.Duration
	userAgent string
	log       adapter.Logger
}

func newClient(endpoint string, env adapter.Env, tokenRef string, timeout time.Duration, rt http.RoundTripper) *client {
	if env.RequestTimeout > 0 {
		timeout = env.RequestTimeout
	}
	c := &client{
		base: strings.TrimSuffix(endpoint, "/") + "/api2/json", secrets: env.Secrets, tokenRef: tokenRef,
		timeout: timeout, userAgent: env.UserAgent, log: env.Log,
	}
	c.http = &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error {
		// The token travels on every request; a redirect would send it
		// wherever it points.
		return adapter.Errorf(adapter.InvalidConfig, "the endpoint answered with a redirect, which is not followed so that the token goes nowhere else; "+
			"set endpoint to the PVE API's base URL itself, such as %s", exampleEndpoint).WithField(settingEndpoint)
	}}
	return c
}

// tokenShape is what PVE shows when a token is made: USER@REALM!ID=SECRET.
var tokenShape = regexp.MustCompile(`^[^@\s=!]+@[^!\s=]+![A-Za-z][A-Za-z0-9._-]*=[^\s]+$`)

// token resolves the API token for one request. Errors name the setting
// and its reference, never a value.
func (c *client) token(ctx context.Context) (string, error) {
	v, err := c.secrets.Resolve(ctx, c.tokenRef)
	if err != nil {
		msg := "secret reference " + c.tokenRef + " cannot be resolved; check that it names an existing secret"
		var e *adapter.Error
		if errors.As(err, &e) {
			msg = e.Message
		}
		return "", &adapter.Error{Code: adapter.InvalidConfig, Field: settingAPIToken, Err: err, Message: settingAPIToken + ": " + msg}
	}
	if !tokenShape.MatchString(v) {
		return "", adapter.Errorf(adapter.InvalidConfig,
			"api_token: the value behind secret reference %s is not a PVE API token of the form USER@REALM!TOKENID=SECRET "+
				"(the value is not shown); store the full token as PVE showed it when it was made, e.g. terraform@pve!compute=<uuid>", c.tokenRef).WithField(settingAPIToken)
	}
	return v, nil
}

// call is one request: route is a path template whose "{…}" placeholders
// are filled from args (path-escaped); the template, never the filled path
// or the query, is what the log shows.
type call struct {
	method, route string
	args          []string
	query         url.Values
	form          url.Values
	// timeout, when positive, replaces the client's bound (agent reads).
	timeout time.Duration
}

func (c *client) get(ctx context.Context, route string, out any, args ...string) error {
	return c.do(ctx, call{method: http.MethodGet, route: route, args: args}, out)
}

func (c *client) post(ctx context.Context, route string, form url.Values, out any, args ...string) error {
	return c.do(ctx, call{method: http.MethodPost, route: route, args: args, form: form}, out)
}

// do sends one request and decodes its answer's data into out (nil: the
// answer is not read beyond its status).
func (c *client) do(ctx context.Context, k call, out any) error {
	tok, err := c.token(ctx)
	if err != nil {
		return err
	}
	timeout := c.timeout
	if k.timeout > 0 {
		timeout = k.timeout
	}
	bound, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := c.request(bound, k, tok)
	if err != nil {
		return err
	}
	resp, data, err := c.send(ctx, bound, k, req, timeout) //nolint:bodyclose // send read the whole body and closed it; resp carries only the status and headers
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		e := parseAPIError(k.method+" "+k.route, resp.StatusCode, resp.Status, data)
		// PVE sends no Retry-After; a proxy in front of it may.
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
			e.retryAfter = time.Duration(secs) * time.Second
		}
		return withheld(e, tok)
	}
	if adapter.NotJSON(data) {
		// A web page, not the PVE API: even a write whose answer is not
		// read did not happen.
		return adapter.NotTheAPI("the PVE API", adapter.Redacted(strings.TrimSuffix(c.base, "/api2/json")), exampleEndpoint, k.method, k.route, resp.StatusCode)
	}
	return decode(k, resp.StatusCode, data, out)
}

// request builds k's request, the token in its header.
func (c *client) request(bound context.Context, k call, tok string) (*http.Request, error) {
	path, err := adapter.FillRoute(k.route, k.args)
	if err != nil {
		return nil, err
	}
	u := c.base + path
	if len(k.query) > 0 {
		u += "?" + k.query.Encode()
	}
	var body io.Reader
	if k.form != nil {
		body = strings.NewReader(k.form.Encode())
	}
	req, err := http.NewRequestWithContext(bound, k.method, u, body)
	if err != nil {
		return nil, adapter.Errorf(adapter.InvalidConfig, "the endpoint %s cannot carry a request; set it to a base URL such as %s", adapter.Redacted(c.base), exampleEndpoint).WithField(settingEndpoint)
	}
	req.Header.Set("Authorization", "PVEAPIToken="+tok)
	req.Header.Set("Accept", "application/json")
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	if k.form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return req, nil
}

// send sends req and reads its whole answer, logging one line.
func (c *client) send(ctx, bound context.Context, k call, req *http.Request, timeout time.Duration) (*http.Response, []byte, error) {
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		err = c.transportError(ctx, bound, k.route, timeout, err)
		c.logLine(ctx, k, start, 0, err)
		return nil, nil, err
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	_ = resp.Body.Close()
	if err != nil {
		err = c.transportError(ctx, bound, k.route, timeout, err)
		c.logLine(ctx, k, start, resp.StatusCode, err)
		return nil, nil, err
	}
	c.logLine(ctx, k, start, resp.StatusCode, nil)
	return resp, data, nil
}

// decode reads the answer's data into out.
func decode(k call, status int, data []byte, out any) error {
	if out == nil {
		return nil
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(data, &env); err == nil {
		err = json.Unmarshal(env.Data, out)
		if err == nil {
			return nil
		}
	}
	// The body is not shown: an answer may echo what was sent.
	return adapter.Errorf(adapter.Transient,
		"the PVE API answered %s %s with HTTP %d but not with the JSON it documents; check that the endpoint is the PVE API (%s)", k.method, k.route, status, exampleEndpoint)
}

// withheld drops an error message that repeats the token.
func withheld(err *apiError, tok string) *apiError {
	_, secret, _ := strings.Cut(tok, "=")
	for _, s := range []string{tok, secret} {
		if s == "" {
			continue
		}
		if strings.Contains(err.Message, s) {
			err.Message = "(the message is withheld: it repeats the token)"
		}
		for p, m := range err.Params {
			if strings.Contains(m, s) {
				err.Params[p] = "(withheld)"
			}
		}
	}
	return err
}

// errRequestBound marks a request that ran out of its own bound.
var errRequestBound = errors.New("the request ran out of its bound")

// transportError names a failure without the request's URL.
func (c *client) transportError(parent, bound context.Context, route string, timeout time.Duration, err error) error {
	var classified *adapter.Error
	if errors.As(err, &classified) {
		return classified
	}
	var pin *pinMismatch
	if errors.As(err, &pin) {
		// InvalidConfig, not AccessDenied: nothing refused the token (it
		// was never sent), and the way out is the account's
		// tls_fingerprint, not its credentials.
		return &adapter.Error{Code: adapter.InvalidConfig, Field: settingTLSFingerprint, Err: adapter.MarkUnreachable(pin), Message: pin.Error() +
			"; nothing was sent to it. Compare with `pvenode cert info` on the node: if the node's certificate changed, set tls_fingerprint to its fingerprint, otherwise something else answers at that address"}
	}
	if e := trustError(c.base, err); e != nil {
		return e
	}
	if parent.Err() != nil {
		return &adapter.Error{Code: adapter.Transient, Err: parent.Err(),
			Message: "the call was canceled or its deadline passed before the PVE API answered " + route}
	}
	if bound.Err() != nil {
		return &adapter.Error{Code: adapter.Transient, Err: errRequestBound,
			Message: fmt.Sprintf("the PVE API at %s did not answer %s within %s", adapter.Redacted(c.base), route, timeout)}
	}
	if adapter.CannotReach(err) {
		// Refused or unresolved: nothing reached the API, which plans give
		// up on quickly (adapter.ReadPolicy).
		err = adapter.MarkUnreachable(err)
	}
	return &adapter.Error{Code: adapter.Transient, Err: err,
		Message: fmt.Sprintf("the PVE API at %s could not be reached for %s: %s", adapter.Redacted(c.base), route, errorClass(err))}
}

// errHTTPToHTTPS is how net/http reports a tls.RecordHeaderError whose bytes
// are an HTTP answer: as text alone, the record error dropped.
const errHTTPToHTTPS = "server gave HTTP response to HTTPS client"

// trustError is the account's configuration to fix for a handshake that
// failed on trust or on the protocol: an untrusted certificate (PVE's own is
// self-signed) or an endpoint that does not speak TLS; nil for others.
func trustError(base string, err error) error {
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var verify *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	switch {
	case errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &verify):
		return &adapter.Error{Code: adapter.InvalidConfig, Field: settingTLSFingerprint, Err: adapter.MarkUnreachable(err), Message: fmt.Sprintf(
			"the PVE API at %s offered a certificate that is not trusted by the system roots or ca_file (%s); nothing was sent to it. "+
				"PVE's default certificate is self-signed: set tls_fingerprint to the fingerprint `pvenode cert info` shows on the node, "+
				"or ca_file to the CA that signed it", adapter.Redacted(base), errorClass(err))}
	case errors.As(err, &record), strings.Contains(err.Error(), errHTTPToHTTPS):
		return &adapter.Error{Code: adapter.InvalidConfig, Field: settingEndpoint, Err: adapter.MarkUnreachable(err), Message: fmt.Sprintf(
			"the server at %s does not speak TLS; nothing was sent to it. PVE's API is https on port 8006: set endpoint to such as %s",
			adapter.Redacted(base), exampleEndpoint)}
	}
	return nil
}
