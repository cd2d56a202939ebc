package proxmox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// DefaultRequestTimeout bounds one API request, its whole answer included.
// PVE answers reads in milliseconds and starts every long operation as a
// task (answering its UPID at once), so no request needs longer.
// adapter.Env.RequestTimeout replaces it.
const DefaultRequestTimeout = 10 * time.Second

// client is the PVE API's rest.Client: the token resolved for each request
// into PVE's own Authorization header, form bodies, answers unwrapped from
// PVE's {"data": …}, error answers read by parseAPIError and every failure
// placed by classify. Agent reads set a bound of their own (rest.Call's
// Timeout).
type client struct {
	*rest.Client
	secrets  adapter.Secrets
	tokenRef string
}

func newClient(endpoint string, env adapter.Env, tokenRef string, timeout time.Duration, rt http.RoundTripper) *client {
	c := &client{secrets: env.Secrets, tokenRef: tokenRef}
	c.Client = rest.New(rest.Config{
		Name: "the PVE API", Endpoint: endpoint, EndpointSetting: settingEndpoint, Base: strings.TrimSuffix(endpoint, "/") + "/api2/json",
		Example: exampleEndpoint, Credential: "the token", Timeout: timeout, Env: env, Transport: rt, LogName: "PVE",
		Authenticate: c.authenticate, Failed: readAPIError, Classify: classify, Decode: unwrapData, ErrorClass: errorClass,
	})
	return c
}

// authenticate sets the token in PVE's header; an answer must repeat
// neither the token nor its secret part.
func (c *client) authenticate(ctx context.Context, req *http.Request) ([]string, error) {
	tok, err := c.token(ctx)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "PVEAPIToken="+tok)
	_, secret, _ := strings.Cut(tok, "=")
	return []string{tok, secret}, nil
}

// tokenShape is what PVE shows when a token is made: USER@REALM!ID=SECRET.
var tokenShape = regexp.MustCompile(`^[^@\s=!]+@[^!\s=]+![A-Za-z][A-Za-z0-9._-]*=[^\s]+$`)

// token resolves the API token for one request. Errors name the setting
// and its reference, never a value.
func (c *client) token(ctx context.Context) (string, error) {
	v, err := adapter.ResolveField(ctx, c.secrets, settingAPIToken, c.tokenRef, "an existing secret")
	if err != nil {
		return "", err
	}
	if !tokenShape.MatchString(v) {
		return "", adapter.UnusableSecret(settingAPIToken, c.tokenRef, "is not a PVE API token of the form USER@REALM!TOKENID=SECRET",
			"store the full token as PVE showed it when it was made, e.g. terraform@pve!compute=<uuid>")
	}
	return v, nil
}

// readAPIError is an error answer as classify reads it. PVE sends no
// Retry-After; a proxy in front of it may.
func readAPIError(a rest.Answer) error {
	e := parseAPIError(a.Method+" "+a.Route, a.Status, a.StatusLine, a.Body)
	e.retryAfter = a.RetryAfter()
	return e
}

// unwrapData reads an answer's data into out.
func unwrapData(body []byte, out any) error {
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return err
	}
	return json.Unmarshal(env.Data, out)
}

// placeFailure is classify's reading of a request without an answer: the
// account's TLS settings to fix for a handshake that failed on trust, the
// client's own reading otherwise.
func placeFailure(f *rest.Failure) error {
	var pin *pinMismatch
	if errors.As(f.Err, &pin) {
		// InvalidConfig, not AccessDenied: nothing refused the token (it
		// was never sent), and the way out is the account's
		// tls_fingerprint, not its credentials.
		return &adapter.Error{Code: adapter.InvalidConfig, Field: settingTLSFingerprint, Err: adapter.MarkUnreachable(pin), Message: pin.Error() +
			"; nothing was sent to it. Compare with `pvenode cert info` on the node: if the node's certificate changed, set tls_fingerprint to its fingerprint, otherwise something else answers at that address"}
	}
	if f.Kind == rest.Unreached {
		if e := trustError(f.Endpoint(), f.Err); e != nil {
			return e
		}
	}
	return f.Classified()
}

// errorClass names what kind of failure err is, from its chain alone.
func errorClass(err error) string {
	var pin *pinMismatch
	if errors.As(err, &pin) {
		return "TLS certificate does not match tls_fingerprint"
	}
	return rest.ErrorClass(err)
}

// errHTTPToHTTPS is how net/http reports a tls.RecordHeaderError whose bytes
// are an HTTP answer: as text alone, the record error dropped.
const errHTTPToHTTPS = "server gave HTTP response to HTTPS client"

// trustError is the account's configuration to fix for a handshake that
// failed on trust or on the protocol: an untrusted certificate (PVE's own is
// self-signed) or an endpoint that does not speak TLS; nil for others.
func trustError(endpoint string, err error) error {
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var verify *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	switch {
	case errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &verify):
		return &adapter.Error{Code: adapter.InvalidConfig, Field: settingTLSFingerprint, Err: adapter.MarkUnreachable(err), Message: fmt.Sprintf(
			"the PVE API at %s offered a certificate that is not trusted by the system roots or ca_file (%s); nothing was sent to it. "+
				"PVE's default certificate is self-signed: set tls_fingerprint to the fingerprint `pvenode cert info` shows on the node, "+
				"or ca_file to the CA that signed it", endpoint, errorClass(err))}
	case errors.As(err, &record), strings.Contains(err.Error(), errHTTPToHTTPS):
		return &adapter.Error{Code: adapter.InvalidConfig, Field: settingEndpoint, Err: adapter.MarkUnreachable(err), Message: fmt.Sprintf(
			"the server at %s does not speak TLS; nothing was sent to it. PVE's API is https on port 8006: set endpoint to such as %s",
			endpoint, exampleEndpoint)}
	}
	return nil
}
