package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// defaultEndpointSetting is the endpoint setting's name when
// Config.EndpointSetting is empty: the name every backend so far gives it.
const defaultEndpointSetting = "endpoint"

// maxAnswer is the most of an answer the client reads: far above any
// listing the APIs send, and a bound on a wrong endpoint's stream.
const maxAnswer = 16 << 20

// Config is what a backend tells the client.
type Config struct {
	// Name names the API in messages: "the Robot webservice".
	Name string
	// Endpoint is the account's endpoint setting; messages show it
	// redacted. Base is the URL routes are appended to, Endpoint when
	// empty (PVE's is Endpoint + "/api2/json").
	Endpoint, Base string
	// EndpointSetting is the name of the account setting Endpoint comes
	// from (the Definition's RoleEndpoint setting), the attribute a wrong
	// endpoint's diagnostic is put on; "endpoint" when empty.
	EndpointSetting string
	// Example is a base URL messages suggest.
	Example string
	// Credential names what travels with each request, for the refusal
	// of a redirect: "the credentials", "the token".
	Credential string
	// Timeout bounds one request, its whole answer included;
	// Env.RequestTimeout replaces it when positive.
	Timeout time.Duration
	// Env gives the secrets (through Authenticate), the user agent, the
	// request timeout and the logger.
	Env       adapter.Env
	Transport http.RoundTripper
	// LogName opens each request's log line: "Robot" gives
	// "Robot request: GET /server/{n} 200 in 12ms".
	LogName string

	// Authenticate resolves the credentials for this one request, sets
	// them on req, and returns the values an error answer must not repeat.
	// Its errors (a reference that does not resolve) are returned as they
	// are, and nothing is sent.
	Authenticate func(ctx context.Context, req *http.Request) (secrets []string, err error)
	// Failed reads an error answer into the backend's own error, which the
	// calls return unclassified: their callers read it, then classify it.
	Failed func(Answer) error
	// Classify is the backend's one classify, handed every *Failure.
	Classify func(error) error
	// Decode reads a successful answer's body into out; json.Unmarshal
	// when nil. PVE's unwraps its {"data": …}.
	Decode func(body []byte, out any) error
	// ErrorClass names a failure on its log line; the package's
	// ErrorClass when nil.
	ErrorClass func(error) string
}

// Client sends the requests of one account. Its fields are the ones a
// test may set after New; none holds a credential.
type Client struct {
	HTTP    *http.Client
	Timeout time.Duration
	Log     adapter.Logger
	cfg     Config
	api     *api
}

// api is what a Failure's message names.
type api struct{ name, endpoint, setting, example, credential string }

// New is a client for cfg.
func New(cfg Config) *Client {
	cfg.Endpoint = strings.TrimSuffix(cfg.Endpoint, "/")
	if cfg.Base == "" {
		cfg.Base = cfg.Endpoint
	}
	if cfg.Transport == nil {
		cfg.Transport = http.DefaultTransport
	}
	if cfg.Decode == nil {
		cfg.Decode = json.Unmarshal
	}
	if cfg.ErrorClass == nil {
		cfg.ErrorClass = ErrorClass
	}
	if cfg.EndpointSetting == "" {
		cfg.EndpointSetting = defaultEndpointSetting
	}
	c := &Client{Timeout: cfg.Timeout, Log: cfg.Env.Log, cfg: cfg,
		api: &api{name: cfg.Name, endpoint: adapter.Redacted(cfg.Endpoint), setting: cfg.EndpointSetting, example: cfg.Example, credential: cfg.Credential}}
	if cfg.Env.RequestTimeout > 0 {
		c.Timeout = cfg.Env.RequestTimeout
	}
	if c.Log == nil {
		c.Log = adapter.NopLogger{}
	}
	c.HTTP = &http.Client{Transport: cfg.Transport, CheckRedirect: refuseRedirect}
	return c
}

// errRedirect stops the client at a redirect: the credentials travel on
// every request, and following one would send them wherever it points.
var errRedirect = errors.New("redirect not followed")

func refuseRedirect(*http.Request, []*http.Request) error { return errRedirect }

// Call is one request. Route is a path template whose "{…}" placeholders
// are filled from Args in order (path-escaped); the template, never the
// filled path or the query, is what the log shows.
type Call struct {
	Method, Route string
	Args          []string
	Query         url.Values
	// Form, or else JSON when not nil, is the body.
	Form url.Values
	JSON any
	// Timeout, when positive, replaces the client's bound.
	Timeout time.Duration
}

// Get sends GET route and decodes the answer into out.
func (c *Client) Get(ctx context.Context, route string, out any, args ...string) error {
	return c.Do(ctx, Call{Method: http.MethodGet, Route: route, Args: args}, out)
}

// Post sends POST route with form as its body.
func (c *Client) Post(ctx context.Context, route string, form url.Values, out any, args ...string) error {
	return c.Do(ctx, Call{Method: http.MethodPost, Route: route, Args: args, Form: form}, out)
}

// Do sends one request and decodes its answer into out (nil: the answer is
// not read beyond its status and its kind).
func (c *Client) Do(ctx context.Context, k Call, out any) error {
	bound := c.Timeout
	if k.Timeout > 0 {
		bound = k.Timeout
	}
	f := &Failure{Method: k.Method, Route: k.Route, Bound: bound, api: c.api}
	within, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	req, err := c.request(within, k)
	if err != nil {
		if errors.Is(err, errUnsent) {
			f.Kind = Unsent
			return c.cfg.Classify(f)
		}
		// A route that does not fit its arguments, or a body that does
		// not marshal: the backend's code is wrong, and no retry mends
		// it. The cause stays in the chain, out of the message, which
		// would quote a value.
		return &adapter.Error{Code: adapter.InvalidInput, Err: err,
			Message: k.Method + " " + k.Route + ": the request cannot be built, a fault of the provider's; report it"}
	}
	// The secret is resolved within the request's own bound too (rule 7,
	// honour the context): a slow resolver cannot hold the call.
	secrets, err := c.cfg.Authenticate(within, req)
	if err != nil {
		return err
	}
	line := logLine{method: k.Method, route: k.Route, start: time.Now()}
	resp, body, err := c.send(ctx, within, req, f) //nolint:bodyclose // send read the whole body and closed it; resp carries only the status and headers
	if err != nil {
		c.logLine(ctx, line, f.Status, err)
		return err
	}
	c.logLine(ctx, line, resp.StatusCode, nil)
	if resp.StatusCode >= 300 {
		return c.cfg.Failed(Answer{Method: k.Method, Route: k.Route, Status: resp.StatusCode,
			StatusLine: withhold(resp.Status, secrets), Header: resp.Header, Body: withholdBody(body, secrets)})
	}
	f.Status = resp.StatusCode
	if adapter.NotJSON(body) {
		// A web page, not the API: even a write whose answer is not
		// read did not happen.
		f.Kind = NotTheAPI
		return c.cfg.Classify(f)
	}
	if out == nil || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	if err := c.cfg.Decode(body, out); err != nil {
		f.Kind, f.Err = Undecodable, err
		return c.cfg.Classify(f)
	}
	return nil
}

var errUnsent = errors.New("the endpoint cannot carry a request")

// request builds k's request, without its credentials.
func (c *Client) request(ctx context.Context, k Call) (*http.Request, error) {
	path, err := adapter.FillRoute(k.Route, k.Args)
	if err != nil {
		return nil, err
	}
	u := c.cfg.Base + path
	if len(k.Query) > 0 {
		u += "?" + k.Query.Encode()
	}
	var body io.Reader
	contentType := ""
	switch {
	case k.Form != nil:
		// Keys sorted, so a request's body is the same every time, and
		// an array parameter sent once per value.
		body, contentType = strings.NewReader(k.Form.Encode()), "application/x-www-form-urlencoded"
	case k.JSON != nil:
		b, err := json.Marshal(k.JSON)
		if err != nil {
			return nil, err
		}
		body, contentType = bytes.NewReader(b), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, k.Method, u, body)
	if err != nil {
		return nil, errUnsent
	}
	req.Header.Set("Accept", "application/json")
	if c.cfg.Env.UserAgent != "" {
		req.Header.Set("User-Agent", c.cfg.Env.UserAgent)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req, nil
}

// send sends req and reads its whole answer. A failure is f, placed by the
// backend's classify.
func (c *Client) send(parent, within context.Context, req *http.Request, f *Failure) (*http.Response, []byte, error) {
	resp, err := c.HTTP.Do(req)
	if err == nil {
		var body []byte
		f.Status = resp.StatusCode
		body, err = io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
		_ = resp.Body.Close()
		if err == nil {
			return resp, body, nil
		}
	}
	f.Kind, f.Err = Unreached, err
	var own *adapter.Error
	switch {
	case errors.Is(err, errRedirect):
		f.Kind = Redirected
	case errors.As(err, &own):
		// The backend's transport said what it is (Failure.Classified).
	case parent.Err() != nil:
		f.Kind, f.Err = Canceled, parent.Err()
	case within.Err() != nil:
		f.Kind, f.Err = Silent, ErrRequestBound
		if f.Status != 0 {
			f.Kind = Cut
		}
	}
	return nil, nil, c.cfg.Classify(f)
}
