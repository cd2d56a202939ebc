package hcloud

import (
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestTransportKeepsConnectionErrors: an endpoint nobody listens on is a
// refused connection, reported as such, not as a request that ran out of
// its time bound.
func TestTransportKeepsConnectionErrors(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String() + "/v1"
	l.Close()
	a := newTestAccount(t, endpoint, func(o *options) { o.retry.MaxRetries = 0 })
	_, err = a.Get(ctxT(t), "42")
	if !adapter.Is(err, adapter.Transient) {
		t.Fatalf("err = %v, want Transient", err)
	}
	if strings.Contains(err.Error(), "did not answer within") || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("err = %q, want the refused connection, not a timeout", err)
	}
}

// TestTransportErrorsRedactTheEndpoint: net/http quotes the whole request
// URL in its errors; an endpoint whose path holds a credential must reach
// neither an error nor the request log.
func TestTransportErrorsRedactTheEndpoint(t *testing.T) {
	const secret = "SENTINEL-path-Pa55w0rd"
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String() + "/" + secret + "/v1"
	l.Close()
	logs := &lockedBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	a := newTestAccount(t, endpoint, func(o *options) { o.retry.MaxRetries = 0; o.logger = logger })
	_, errList := a.ListOffers(ctxT(t), adapter.Query{})
	errCheck := a.Check(ctxT(t))
	for _, err := range []error{errList, errCheck} {
		if !adapter.Is(err, adapter.Transient) || !strings.Contains(err.Error(), "refused") {
			t.Fatalf("err = %v, want the refused connection", err)
		}
		if strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "http://"+l.Addr().String()+"/…") {
			t.Errorf("the error does not redact the endpoint's path: %v", err)
		}
	}
	if !strings.Contains(logs.String(), "/…/v1/") {
		t.Fatalf("the request log holds no request: %s", logs)
	}
	if strings.Contains(logs.String(), secret) {
		t.Errorf("the request log shows the endpoint's path: %s", logs)
	}
}
