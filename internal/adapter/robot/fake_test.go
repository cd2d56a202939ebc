package robot

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
)

// The fake is a small stand-in for the Robot webservice, answering in the
// shapes of the spec and the real documentation, for the unit tests; the
// conformance suite runs against the real emulator (internal/emulator/robot).

const (
	testUser     = "robot-user-7c1d"
	testPassword = "robot-pass-Q9x2v"
	testKey      = "56:29:99:a4:5d:ed:ac:95:c1:f5:88:82:90:5d:dd:10"
)

type fakeServer struct {
	server
	resets []string
}

type fake struct {
	mu       sync.Mutex
	servers  map[int]*fakeServer
	txns     []transaction
	requests []string // "METHOD /path body"
	// failNext answers the next request whose "METHOD /path" has this
	// prefix with status and body, n times.
	failRoute  string
	failN      int
	failStatus int
	failBody   string
	// dropOrder commits an order and then answers 504 without its body,
	// as a proxy does when the answer was lost.
	dropOrder bool
	// nextServer is the number an order delivers.
	nextServer int
}

func newFake() *fake {
	return &fake{servers: map[int]*fakeServer{}, nextServer: 900}
}

func (f *fake) add(n int, name, product, dc, status string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.servers[n] = &fakeServer{server: server{Number: n, Name: name, Product: product, DC: dc, Status: status,
		IP: fmt.Sprintf("203.0.113.%d", n%250), IPv6Net: "2001:db8:" + strconv.Itoa(n) + "::", Wol: true}}
}

func (f *fake) count(prefix string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := 0
	for _, r := range f.requests {
		if strings.HasPrefix(r, prefix) {
			c++
		}
	}
	return c
}

func (f *fake) name(n int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.servers[n].Name
}

func robotError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"status": status, "code": code, "message": msg}})
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	f.mu.Lock()
	defer f.mu.Unlock()
	line := r.Method + " " + r.URL.Path
	f.requests = append(f.requests, line+" "+r.PostForm.Encode())
	if u, p, ok := r.BasicAuth(); !ok || u != testUser || p != testPassword {
		robotError(w, 401, "UNAUTHORIZED", "Unauthorized")
		return
	}
	if f.failN > 0 && strings.HasPrefix(line, f.failRoute) {
		f.failN--
		w.WriteHeader(f.failStatus)
		_, _ = w.Write([]byte(f.failBody))
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case line == "GET /server":
		var out []serverEnvelope
		for n := range 1000 {
			if s, ok := f.servers[n]; ok {
				out = append(out, serverEnvelope{s.server})
			}
		}
		if len(out) == 0 {
			robotError(w, 404, "SERVER_NOT_FOUND", "server not found")
			return
		}
		reply(w, out)
	case parts[0] == "server" && len(parts) >= 2:
		n, _ := strconv.Atoi(parts[1])
		s, ok := f.servers[n]
		if !ok {
			robotError(w, 404, "SERVER_NOT_FOUND", "server not found")
			return
		}
		switch {
		case len(parts) == 3 && r.Method == http.MethodPost:
			s.Cancelled = true
			reply(w, map[string]any{"cancellation": map[string]any{"server_number": n, "cancelled": true}})
		case r.Method == http.MethodPost:
			s.Name = r.PostForm.Get("server_name")
			reply(w, serverEnvelope{s.server})
		default:
			reply(w, serverEnvelope{s.server})
		}
	case line == "GET /key":
		reply(w, []keyEnvelope{{key{Name: "ops", Fingerprint: testKey, Type: "ED25519"}}})
	case parts[0] == "reset" && len(parts) == 2:
		n, _ := strconv.Atoi(parts[1])
		s := f.servers[n]
		if r.Method == http.MethodPost {
			s.resets = append(s.resets, r.PostForm.Get("type"))
			reply(w, map[string]any{"reset": map[string]any{"type": r.PostForm.Get("type")}})
			return
		}
		reply(w, map[string]any{"reset": map[string]any{"server_number": n, "type": []string{"sw", "hw", "man", "power", "power_long"}}})
	case parts[0] == "wol":
		n, _ := strconv.Atoi(parts[1])
		f.servers[n].resets = append(f.servers[n].resets, "wol")
		reply(w, map[string]any{"wol": map[string]any{"server_number": n}})
	case line == "GET /order/server/product":
		reply(w, json.RawMessage(`[{"product":{"id":"AX42","name":"Dedicated Root Server AX42","description":["AMD Ryzen 7 PRO 8700GE 8-Core","64 GB DDR5 ECC RAM","2 x 512 GB NVMe SSD"],"traffic":"unlimited","location":["FSN1","NBG1"],"prices":[{"location":"FSN1","price":{"net":"46.0000","gross":"54.7400"},"price_setup":{"net":"0.0000","gross":"0.0000"}},{"location":"NBG1","price":{"net":"46.0000","gross":"54.7400"},"price_setup":{"net":"0.0000","gross":"0.0000"}}]}}]`))
	case line == "GET /order/server_market/product":
		reply(w, json.RawMessage(`[{"product":{"id":2383744,"name":"SB 102","description":["Intel Core i7-6700","2x SSD SATA 512 GB","64 GB RAM"],"cpu":"Intel Core i7-6700","memory_size":64,"hdd_size":512,"hdd_count":2,"datacenter":"HEL1-DC2","price":"33.6100","price_vat":"39.9959","price_setup":"0.0000","price_setup_vat":"0.0000"}}]`))
	case line == "GET /order/server/transaction":
		var out []txnEnvelope
		for _, t := range f.txns {
			out = append(out, txnEnvelope{t})
		}
		if len(out) == 0 {
			robotError(w, 404, "NOT_FOUND", "no transactions")
			return
		}
		reply(w, out)
	case line == "POST /order/server/transaction":
		n := f.nextServer
		f.nextServer++
		t := transaction{ID: "B20260101-" + strconv.Itoa(n), Status: txnInProcess, Product: txnProd{ID: r.PostForm.Get("product_id"), Location: r.PostForm.Get("location")}}
		for _, k := range r.PostForm["authorized_key[]"] {
			var a akey
			a.Key.Fingerprint = k
			t.AuthorizedKey = append(t.AuthorizedKey, a)
		}
		f.txns = append(f.txns, t)
		if f.dropOrder {
			f.dropOrder = false
			w.WriteHeader(http.StatusGatewayTimeout)
			return
		}
		w.WriteHeader(http.StatusCreated)
		reply(w, txnEnvelope{t})
	case parts[0] == "order" && len(parts) == 4 && r.Method == http.MethodGet:
		// Each read of an order in process delivers it: the server
		// appears, unnamed, and the order is ready.
		for i := range f.txns {
			t := &f.txns[i]
			if t.ID != parts[3] {
				continue
			}
			if t.Status == txnInProcess {
				n, _ := strconv.Atoi(strings.TrimPrefix(t.ID, "B20260101-"))
				t.Status, t.ServerNumber = txnReady, &n
				f.servers[n] = &fakeServer{server: server{Number: n, Product: fmt.Sprint(t.Product.ID), DC: "FSN1-DC14", Status: statusReady, IP: "203.0.113.99"}}
			}
			reply(w, txnEnvelope{*t})
			return
		}
		robotError(w, 404, "TRANSACTION_NOT_FOUND", "transaction not found")
	default:
		robotError(w, 404, "NOT_FOUND", "not found")
	}
}

// testAccount opens an account on f (the fake, or a handler around it)
// with settings changed by extra.
func testAccount(t *testing.T, f http.Handler, log adapter.Logger, extra map[string]string) *account {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	settings := map[string]string{"user": "provider://robot_user", "password": "provider://robot_password", "endpoint": srv.URL, "ssh_key": testKey}
	for k, v := range extra {
		settings[k] = v
	}
	d := definition(options{poll: adapter.Backoff{Initial: time.Millisecond, Max: time.Millisecond}, requestTimeout: 5 * time.Second})
	norm, err := d.Normalize(settings, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.New(norm, adapter.Env{
		Secrets: adapter.SecretResolver{Provider: map[string]string{"robot_user": testUser, "robot_password": testPassword}},
		Clock:   adaptertest.InstantClock{}, Log: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	return a.(*account)
}

func call(a *account, name string) adapter.Call {
	return adapter.Call{IdempotencyKey: adapter.IdempotencyKey(a.scope, name), Claim: adapter.NewClaim()}
}
