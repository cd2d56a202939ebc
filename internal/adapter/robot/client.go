package robot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// DefaultRequestTimeout bounds one request to the webservice, its whole
// answer included. Robot answers reads in well under a second; an order or
// a cancellation takes a few. adapter.Env.RequestTimeout replaces it.
const DefaultRequestTimeout = 10 * time.Second

// client is the thin webservice client: one request per call, never sent
// twice (adapter.Retry decides about another attempt, on the account's
// clock), every request within its own bound, credentials resolved for the
// request alone.
type client struct {
	base      string // endpoint without its trailing slash
	http      *http.Client
	secrets   adapter.Secrets
	userRef   string
	passRef   string
	timeout   time.Duration
	userAgent string
	log       adapter.Logger
}

func newClient(endpoint string, env adapter.Env, userRef, passRef string, timeout time.Duration, transport http.RoundTripper) *client {
	if transport == nil {
		transport = http.DefaultTransport
	}
	if env.RequestTimeout > 0 {
		timeout = env.RequestTimeout
	}
	log := env.Log
	if log == nil {
		log = adapter.NopLogger{}
	}
	c := &client{
		base: strings.TrimSuffix(endpoint, "/"), secrets: env.Secrets, userRef: userRef, passRef: passRef,
		timeout: timeout, userAgent: env.UserAgent, log: textNumbers{log},
	}
	c.http = &http.Client{Transport: transport, CheckRedirect: c.refuseRedirect}
	return c
}

// refuseRedirect stops at a redirect: the client sets Basic credentials on
// every request, and following one would send them wherever it points.
func (c *client) refuseRedirect(*http.Request, []*http.Request) error {
	return adapter.Errorf(adapter.InvalidConfig,
		"the endpoint %s answered with a redirect, which the provider does not follow so that the credentials go nowhere else; "+
			"set endpoint to the webservice's base URL itself, such as %s", adapter.Redacted(c.base), DefaultEndpoint).WithField(settingEndpoint)
}

// get, post and del send one request to route, a path template whose
// "{…}" placeholders are filled from args in order (path-escaped), and
// decode the JSON answer into out when out is not nil. The template, never
// the filled path, is what the log shows.
func (c *client) get(ctx context.Context, route string, out any, args ...string) error {
	return c.do(ctx, http.MethodGet, route, args, nil, out)
}

func (c *client) post(ctx context.Context, route string, form url.Values, out any, args ...string) error {
	return c.do(ctx, http.MethodPost, route, args, form, out)
}

func (c *client) do(ctx context.Context, method, route string, args []string, form url.Values, out any) error {
	user, pass, err := c.credentials(ctx)
	if err != nil {
		return err
	}
	path, err := adapter.FillRoute(route, args)
	if err != nil {
		return err
	}
	bound, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(encodeForm(form))
	}
	req, err := http.NewRequestWithContext(bound, method, c.base+path, body)
	if err != nil {
		return adapter.Errorf(adapter.InvalidConfig, "the endpoint %s cannot carry a request; set it to a base URL such as %s", adapter.Redacted(c.base), DefaultEndpoint).WithField(settingEndpoint)
	}
	req.SetBasicAuth(user, pass)
	req.Header.Set("Accept", "application/json")
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	line := requestLine{method: method, route: route, start: time.Now()}
	resp, err := c.http.Do(req)
	if err != nil {
		err = c.transportError(ctx, bound, route, err, false)
		c.logLine(ctx, line, 0, err)
		return err
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	_ = resp.Body.Close()
	if err != nil {
		err = c.transportError(ctx, bound, route, err, true)
		c.logLine(ctx, line, resp.StatusCode, err)
		return err
	}
	c.logLine(ctx, line, resp.StatusCode, nil)
	if resp.StatusCode >= 400 {
		return withheld(parseAPIError(resp.StatusCode, resp.Header, data), user, pass)
	}
	if adapter.NotJSON(data) {
		// A web page, not the webservice: even a write without an
		// answer to read did not happen.
		return adapter.NotTheAPI("the Robot webservice", adapter.Redacted(c.base), DefaultEndpoint, method, route, resp.StatusCode)
	}
	if out == nil || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		// The body is not shown: an answer may echo what was sent.
		return &adapter.Error{Code: adapter.Transient, Err: err,
			Message: fmt.Sprintf("the webservice answered %s %s with HTTP %d but not with the JSON it documents (%s); check that the endpoint is the Robot webservice",
				method, route, resp.StatusCode, jsonProblem(err))}
	}
	return nil
}

// withheld drops an error message that repeats a credential: a proxy or
// a webservice error may echo what it was sent, and the message reaches
// diagnostics verbatim.
func withheld(err error, secrets ...string) error {
	if e, ok := err.(*apiError); ok {
		for _, s := range secrets {
			if s != "" && strings.Contains(e.Message, s) {
				e.Message = "(the message is withheld: it repeats a credential)"
			}
		}
	}
	return err
}

// transportError names a failure without the request's URL, which the
// error's own text quotes.
func (c *client) transportError(parent, bound context.Context, route string, err error, partial bool) error {
	var classified *adapter.Error
	if errors.As(err, &classified) {
		return classified
	}
	if parent.Err() != nil {
		return &adapter.Error{Code: adapter.Transient, Err: parent.Err(),
			Message: "the call was canceled or its deadline passed before the Robot webservice answered " + route}
	}
	if bound.Err() != nil {
		what := "did not answer"
		if partial {
			what = "began to answer but did not finish"
		}
		return &adapter.Error{Code: adapter.Transient, Err: errRequestBound,
			Message: fmt.Sprintf("the Robot webservice at %s %s %s within %s", adapter.Redacted(c.base), what, route, c.timeout)}
	}
	if adapter.CannotReach(err) {
		// Refused, unresolved, or a failed TLS handshake: nothing reached
		// the webservice, which plans give up on quickly
		// (adapter.ReadPolicy).
		err = adapter.MarkUnreachable(err)
	}
	return &adapter.Error{Code: adapter.Transient, Err: err,
		Message: fmt.Sprintf("the Robot webservice at %s could not be reached for %s: %s", adapter.Redacted(c.base), route, errorClass(err))}
}

// errRequestBound marks a request that ran out of its own bound. It is not
// adapter.ErrNoAnswer: the client sends nothing twice, so the caller's
// retry may send it again.
var errRequestBound = errors.New("the request ran out of its bound")

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

// credentials resolves user and password for one request. Errors name the
// setting and its reference, never a value.
func (c *client) credentials(ctx context.Context) (string, string, error) {
	user, err := c.resolve(ctx, settingUser, c.userRef)
	if err != nil {
		return "", "", err
	}
	pass, err := c.resolve(ctx, settingPassword, c.passRef)
	if err != nil {
		return "", "", err
	}
	return user, pass, nil
}

func (c *client) resolve(ctx context.Context, setting, ref string) (string, error) {
	v, err := c.secrets.Resolve(ctx, ref)
	if err != nil {
		msg := "secret reference " + ref + " cannot be resolved; check that it names an existing secret"
		var e *adapter.Error
		if errors.As(err, &e) {
			msg = e.Message
		}
		return "", &adapter.Error{Code: adapter.InvalidConfig, Field: setting, Err: err, Message: setting + ": " + msg}
	}
	for i := 0; i < len(v); i++ {
		if v[i] < ' ' || v[i] == 0x7f || (setting == settingUser && v[i] == ':') {
			return "", adapter.Errorf(adapter.InvalidConfig,
				"%s: the value behind secret reference %s holds a control character or, for the user, a colon, and cannot be sent with HTTP Basic; store the value alone, without line breaks", setting, ref).WithField(setting)
		}
	}
	return v, nil
}

// encodeForm is url.Values.Encode: keys sorted, so a request's body is the
// same every time, and an array parameter, whose key ends in "[]" as Robot
// names them, sent once per value (authorized_key[]=a&authorized_key[]=b).
func encodeForm(form url.Values) string {
	return form.Encode()
}
