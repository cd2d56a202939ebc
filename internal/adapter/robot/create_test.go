package robot

import (
	"context"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

func req(name string) adapter.CreateRequest {
	return adapter.CreateRequest{Name: name, OfferID: "AX42", Location: "fsn1", PowerOn: true}
}

func TestClaimNameRoundTrip(t *testing.T) {
	c := claimed{Name: "web-1", Claim: strings.Repeat("ab", 16), Fingerprint: "0123456789abcdef", Managed: true, WasNamed: true}
	got := parseName(c.String())
	if got.Name != "web-1" || got.Claim != c.Claim || got.Fingerprint != "01234567" || !got.WasNamed || !got.Managed {
		t.Errorf("parseName(%q) = %+v", c.String(), got)
	}
	if len(c.String()) != len("web-1")+markLen {
		t.Errorf("mark is %d characters, want %d", len(c.String())-len("web-1"), markLen)
	}
	for _, plain := range []string{"", "web-1", "a~cm~b", "x~cm~" + strings.Repeat("g", 32) + "~01234567~e"} {
		if parseName(plain).Managed {
			t.Errorf("%q reads as managed", plain)
		}
	}
	long := strings.Repeat("a", maxUserName)
	if !validName(long) || validName(long+"a") || validName("a~cm~b") || validName("tab\there") {
		t.Error("name rule")
	}
	if len(claimed{Name: long, Claim: c.Claim, Fingerprint: c.Fingerprint}.String()) != maxServerName {
		t.Error("the longest name with its mark is not the longest server name")
	}
}

func TestCreateClaimsFreeServerAndReleases(t *testing.T) {
	f := newFake()
	f.add(100, "in-use", "AX42", "FSN1-DC14", statusReady)
	f.add(102, "", "AX42", "FSN1-DC14", statusReady)
	f.add(101, "", "AX42", "NBG1-DC3", statusReady)
	f.add(103, "", "AX42", "FSN1-DC14", statusInProcess)
	a := testAccount(t, f, nil, nil)
	m, err := a.Create(context.Background(), call(a, "web-1"), req("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "102" || !m.Managed || m.Name != "web-1" || m.State != adapter.StateRunning || m.Location != "fsn1" {
		t.Errorf("claimed %+v", m)
	}
	if c := parseName(f.name(102)); !c.Managed || c.WasNamed {
		t.Errorf("server name %q", f.name(102))
	}
	if err := a.Delete(context.Background(), "102"); err != nil {
		t.Fatal(err)
	}
	if f.name(102) != "" {
		t.Errorf("release left name %q", f.name(102))
	}
	if f.count("POST /server/102/cancellation") != 0 {
		t.Error("cancelled without cancel_on_destroy")
	}
}

func TestCreateByMachineID(t *testing.T) {
	f := newFake()
	f.add(200, "db", "AX42", "FSN1-DC14", statusReady)
	f.add(201, "someone", "AX42", "FSN1-DC14", statusReady)
	a := testAccount(t, f, nil, map[string]string{"cancel_on_destroy": "true"})
	r := req("db")
	r.MachineID = "200"
	m, err := a.Create(context.Background(), call(a, "db"), r)
	if err != nil || m.ID != "200" {
		t.Fatalf("Create = %+v, %v", m, err)
	}
	if !parseName(f.name(200)).WasNamed {
		t.Errorf("a server named like the resource must be released to its name: %q", f.name(200))
	}
	if err := a.Delete(context.Background(), "200"); err != nil {
		t.Fatal(err)
	}
	// Cancelled, the server keeps its mark until Robot drops it, so a
	// retried delete is done at once and cancels nothing twice.
	if err := a.Delete(context.Background(), "200"); err != nil {
		t.Fatalf("a retried delete of a cancelled server: %v", err)
	}
	if !parseName(f.name(200)).Managed || f.count("POST /server/200/cancellation") != 1 {
		t.Errorf("cancel on destroy: name %q, cancellations %d; want the mark kept and one cancellation", f.name(200), f.count("POST /server/200/cancellation"))
	}

	r.Name, r.MachineID = "cache", "201"
	_, err = a.Create(context.Background(), call(a, "cache"), r)
	if !adapter.Is(err, adapter.Conflict) || !strings.Contains(err.Error(), `"someone"`) || !strings.Contains(err.Error(), "rename it in Robot") {
		t.Errorf("claiming a named server: %v", err)
	}
	if f.name(201) != "someone" {
		t.Error("a refused claim wrote the name")
	}
}

func TestCreateAdoptsByKey(t *testing.T) {
	f := newFake()
	f.add(300, "", "AX42", "FSN1-DC14", statusReady)
	f.add(301, "", "AX42", "FSN1-DC14", statusReady)
	a := testAccount(t, f, nil, nil)
	first, err := a.Create(context.Background(), call(a, "web"), req("web"))
	if err != nil {
		t.Fatal(err)
	}
	// A rerun (a new claim, same key) takes the same server back.
	again, err := a.Create(context.Background(), call(a, "web"), req("web"))
	if err != nil || again.ID != first.ID || !again.Adopted || again.PriorClaim != first.Claim {
		t.Fatalf("rerun = %+v, %v", again, err)
	}
	// Other settings under the same name: Conflict, nothing written.
	other := req("web")
	other.OfferID = "AX52"
	before := f.name(300)
	if _, err := a.Create(context.Background(), call(a, "web"), other); !adapter.Is(err, adapter.Conflict) {
		t.Errorf("other fingerprint: %v", err)
	}
	if f.name(300) != before || f.name(301) != "" {
		t.Error("a refused adoption wrote a name")
	}
}

func TestCreateWithoutFreeServer(t *testing.T) {
	f := newFake()
	a := testAccount(t, f, nil, nil)
	_, err := a.Create(context.Background(), call(a, "web"), req("web"))
	for _, want := range []string{"AX42", "fsn1", "allow_order", "max_monthly_price", "machine_id"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if adapter.FieldOf(err) != adapter.FieldOfferID || f.count("POST /order") != 0 {
		t.Errorf("field %q, orders %d", adapter.FieldOf(err), f.count("POST /order"))
	}
}

func TestCreateOrders(t *testing.T) {
	f := newFake()
	a := testAccount(t, f, nil, map[string]string{"allow_order": "true"})
	r := req("metal")
	r.MaxMonthlyPrice = 50
	if _, err := a.Create(context.Background(), call(a, "metal"), r); !strings.Contains(err.Error(), "54.74") || f.count("POST /order") != 0 {
		t.Fatalf("over the limit: %v, orders %d", err, f.count("POST /order"))
	}
	r.MaxMonthlyPrice = 60
	m, err := a.Create(context.Background(), call(a, "metal"), r)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "900" || !m.Managed || f.count("POST /order/server/transaction") != 1 {
		t.Errorf("ordered %+v, orders %d", m, f.count("POST /order/server/transaction"))
	}
	// The order changed what Robot offers: the next catalog call reads it
	// again instead of the cache.
	before := f.count("GET /order/server/product")
	if _, err := a.ListOffers(context.Background(), adapter.Query{}); err != nil || f.count("GET /order/server/product") != before+1 {
		t.Errorf("offers after an order: %v, %d reads after %d; want one more", err, f.count("GET /order/server/product"), before)
	}
	body := f.requests[slicesIndex(f.requests, "POST /order/server/transaction")]
	if !strings.Contains(body, "authorized_key%5B%5D="+strings.ReplaceAll(testKey, ":", "%3A")) || strings.Contains(body, "comment") || !strings.Contains(body, "location=FSN1") {
		t.Errorf("order body %q", body)
	}
}

// An order whose answer was lost is found among the transactions, never
// sent twice.
func TestLostOrderIsNotSentAgain(t *testing.T) {
	f := newFake()
	f.dropOrder = true
	a := testAccount(t, f, nil, map[string]string{"allow_order": "true"})
	r := req("metal")
	r.MaxMonthlyPrice = 60
	_, err := a.Create(context.Background(), call(a, "metal"), r)
	if !adapter.Is(err, adapter.Transient) {
		t.Fatalf("lost answer: %v", err)
	}
	m, err := a.Create(context.Background(), call(a, "metal"), r)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.count("POST /order/server/transaction"); n != 1 || m.ID != "900" {
		t.Errorf("orders sent %d, machine %s; want one order and its server", n, m.ID)
	}
}

func slicesIndex(all []string, prefix string) int {
	for i, s := range all {
		if strings.HasPrefix(s, prefix) {
			return i
		}
	}
	return -1
}
