package hcloud

import (
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
