package robot

import (
	"context"
	"encoding/base64"
	"net/http"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// DefaultRequestTimeout bounds one request to the webservice, its whole
// answer included. Robot answers reads in well under a second; an order or
// a cancellation takes a few. adapter.Env.RequestTimeout replaces it.
const DefaultRequestTimeout = 10 * time.Second

// client is the webservice's rest.Client: HTTP Basic with the user and
// password resolved for each request, form bodies (keys sorted, an array
// parameter such as authorized_key[] sent once per value), error answers
// read by parseAPIError and every failure placed by classify. Its logger
// gives numbers as text (textNumbers), for the request log and the
// bootstrap phases' lines alike.
type client struct {
	*rest.Client
	secrets          adapter.Secrets
	userRef, passRef string
}

func newClient(endpoint string, env adapter.Env, userRef, passRef string, timeout time.Duration, transport http.RoundTripper) *client {
	if env.Log == nil {
		env.Log = adapter.NopLogger{}
	}
	env.Log = textNumbers{env.Log}
	c := &client{secrets: env.Secrets, userRef: userRef, passRef: passRef}
	c.Client = rest.New(rest.Config{
		Name: "the Robot webservice", Endpoint: endpoint, EndpointSetting: settingEndpoint, Example: DefaultEndpoint, Credential: "the credentials",
		Timeout: timeout, Env: env, Transport: transport, LogName: "Robot",
		Authenticate: c.authenticate, Failed: parseAPIError, Classify: classify,
	})
	return c
}

// authenticate sets HTTP Basic; an answer must repeat neither value, nor
// the header's base64 of both, which a proxy or a debug page that echoes
// the request's headers would show and anyone can decode.
func (c *client) authenticate(ctx context.Context, req *http.Request) ([]string, error) {
	user, pass, err := c.credentials(ctx)
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(user, pass)
	return []string{user, pass, base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))}, nil
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
	v, err := adapter.ResolveField(ctx, c.secrets, setting, ref, "an existing secret")
	if err != nil {
		return "", err
	}
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] < ' ' || v[i] == 0x7f:
			return "", adapter.UnusableSecret(setting, ref, "holds a control character (a line break, say), which HTTP Basic cannot carry",
				"store the value alone, without line breaks")
		case setting == settingUser && v[i] == ':':
			return "", adapter.UnusableSecret(setting, ref, "holds a colon, which HTTP Basic takes as the end of the user",
				"store the Robot webservice user alone, as Robot shows it")
		}
	}
	return v, nil
}
