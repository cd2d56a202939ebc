package hcloud

import (
	"bufio"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
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
	a := newTestAccount(t, endpoint)
	_, err = a.Get(ctxT(t), "42")
	if !adapter.Is(err, adapter.Transient) || adapter.NoAnswer(err) {
		t.Fatalf("err = %v, want Transient that is not a silence", err)
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
	logs := &textLogger{}
	env := testEnv(testToken)
	env.Log = logs
	a := newTestAccountWith(t, testSettings(endpoint), env)
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
	if !strings.Contains(logs.String(), "route=/locations") || !strings.Contains(logs.String(), "error=\"connection refused\"") {
		t.Fatalf("the request log holds no refused request: %s", logs)
	}
	if strings.Contains(logs.String(), secret) {
		t.Errorf("the request log shows the endpoint's path: %s", logs)
	}
}

// silentEndpoint accepts connections, reads each request and never
// answers; it counts the requests it read.
func silentEndpoint(t *testing.T) (endpoint string, requests *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	requests = &atomic.Int32{}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				if _, err := http.ReadRequest(bufio.NewReader(conn)); err == nil {
					requests.Add(1)
				}
				<-done
			}()
		}
	}()
	return "http://" + l.Addr().String() + "/v1", requests
}

// TestSilentEndpointCostsTwoBounds: a request to an endpoint that accepts
// and never answers is sent twice, each within its bound, whatever
// hcloud-go's own retry would do; the failure names the endpoint and the
// bound, is Transient and not a cancellation, and the Terraform layer does
// not send it again.
func TestSilentEndpointCostsTwoBounds(t *testing.T) {
	endpoint, requests := silentEndpoint(t)
	// A second, not less: on a machine whose cores are all busy (and under
	// -race) a request may not even be written within 100ms, and then the
	// endpoint never reads it.
	const bound = time.Second
	a := newTestAccount(t, endpoint, func(o *options) { o.requestTimeout = bound })
	start := time.Now()
	_, err := a.Get(ctxT(t), "42")
	took := time.Since(start)
	if !adapter.Is(err, adapter.Transient) || adapter.Canceled(err) || !adapter.NoAnswer(err) {
		t.Fatalf("got %v (canceled %t), want Transient, no answer, not a cancellation", err, adapter.Canceled(err))
	}
	want := "the Hetzner Cloud API at " + endpoint + " did not answer within 1s, nor when the request was sent once more"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("err = %q, want it to say %q", err, want)
	}
	if n := requests.Load(); n != 2 {
		t.Errorf("the endpoint read %d requests, want 2 (one resend, none by hcloud-go)", n)
	}
	// Only a lower bound: each request waited out its bound. How much
	// longer the whole call took says how busy the machine was, not how the
	// transport behaves; the message above names the bound that ran out.
	if took < 2*bound {
		t.Errorf("Get took %s, less than two bounds of %s", took, bound)
	}
	if retry, _ := adapter.RetryDecision(err, 1, adapter.DefaultBackoff); retry {
		t.Error("the Terraform layer would send a twice-unanswered request again")
	}
}

// TestOneSilentAnswerIsSentAgain: a read held past its bound once is sent
// once more and answered; a create is not sent twice by the transport.
func TestOneSilentAnswerIsSentAgain(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	id := strconv.FormatInt(e.AddServer(emu.Server{Name: "seeded"}), 10)
	// The bound is a second so that the answered resend is answered within
	// it on a machine whose cores are all busy.
	a := newTestAccount(t, endpoint, func(o *options) { o.requestTimeout = time.Second })
	e.DelayIfConnectedNext("GET", "/servers/{id}", 1, time.Hour)
	if _, err := a.Get(ctxT(t), id); err != nil {
		t.Errorf("one silent answer: %v", err)
	}
	if n := e.Stats()["GET /servers/{id}"]; n != 2 {
		t.Errorf("%d reads, want 2", n)
	}
	// The held create never reaches the API: its client left first. The
	// transport does not send a POST again; Create's look-up by key shows
	// nothing was made, and says the create may be retried, which the
	// caller's retry does.
	e.DelayIfConnectedNext("POST", "/servers", 1, time.Hour)
	_, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if retry, _ := adapter.RetryDecision(err, 1, adapter.DefaultBackoff); !retry || adapter.NoAnswer(err) {
		t.Fatalf("a create the API never answered, with nothing found by key: %v, want a retryable error", err)
	}
	if n := e.Stats()["POST /servers"]; n != 1 {
		t.Errorf("the transport sent the create %d times, want once", n)
	}
	m, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatalf("the create sent again: %v", err)
	}
	if s, ok := e.Server(mustID(t, m.ID)); !ok || s.Name != "web-1" || s.UserData != testRequest("web-1").UserData {
		t.Errorf("the resent create made %+v, want web-1 with its user data", s)
	}
}

// TestStalledAnswerIsBoundToo: an answer that begins and then stalls is cut
// by the same bound and sent again; the failure says the answer began.
func TestStalledAnswerIsBoundToo(t *testing.T) {
	var requests atomic.Int32
	stalled := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"server":`))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-stalled:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stalled) })
	// The bound is long enough for the handler to begin its answer on a
	// busy machine (under -race with every core taken, 100ms was not):
	// the test is about what comes after that.
	a := newTestAccount(t, srv.URL+"/v1", func(o *options) { o.requestTimeout = time.Second })
	_, err := a.Get(ctxT(t), "42")
	if !adapter.NoAnswer(err) || !strings.Contains(err.Error(), "began to answer but did not finish within 1s, nor when the request was sent once more") {
		t.Fatalf("got %v, want a stalled answer, sent twice", err)
	}
	if n := requests.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// TestEnvRequestTimeoutReplacesTheBound: the Terraform layer's bound, when
// set, is the one every request gets.
func TestEnvRequestTimeoutReplacesTheBound(t *testing.T) {
	endpoint, _ := silentEndpoint(t)
	env := testEnv(testToken)
	env.RequestTimeout = 30 * time.Millisecond
	a := newTestAccountWith(t, testSettings(endpoint), env)
	if _, err := a.Get(ctxT(t), "42"); !strings.Contains(err.Error(), "did not answer within 30ms") {
		t.Fatalf("got %v, want the Env's 30ms bound", err)
	}
}
