package robot_test

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

// TestEveryRouteAnswersAsTheDescriptionShows walks each route the
// emulator registers through a server's life (keys, names, resets, rescue
// and Linux boots, cancellation, orders) and through the failures every
// route has (an unknown server, key, product or transaction; each form
// field the description requires, left out), holding each answer to the
// description.
func TestEveryRouteAnswersAsTheDescriptionShows(t *testing.T) {
	d := loadDescription(t)
	v := start(t, robot.Options{Unlimited: true, Orders: robot.OrderPace{Polls: 2}})
	w := newWalker(t, d, v)
	w.checkRoutes()
	want(t, w.call("GET", "/server", nil), 404, "SERVER_NOT_FOUND")
	want(t, w.call("GET", "/reset", nil), 404, "SERVER_NOT_FOUND")
	want(t, w.call("GET", "/key", nil), 404, "NOT_FOUND")
	want(t, w.call("GET", "/order/server/transaction", nil), 404, "NOT_FOUND")
	want(t, w.call("GET", "/order/server_market/transaction", nil), 404, "NOT_FOUND")

	s := v.seed(t, robot.ServerSeed{Product: "AX42", Name: "walk"})
	n := "/" + itoa(s.Number)
	want(t, w.call("POST", "/key", form("name", "laptop", "data", edKey)), 201, "")
	walkRequiredFields(t, w, n)
	walkUnknownIDs(t, w)
	walkServer(t, w, n)
	walkBoot(t, w, n)
	walkOrders(t, w)
	walkCancellation(t, w, n)
	want(t, w.call("DELETE", "/key/"+edKeyFP, nil), 204, "")

	for _, r := range v.e.Routes() {
		if !w.ok[r] {
			t.Errorf("route %s: the walk saw no success from it", r)
		}
		if !w.failed[r] {
			t.Errorf("route %s: the walk saw no failure from it", r)
		}
	}
	for k, why := range w.allowed {
		if !w.used[k] {
			t.Errorf("allowance %q (%s) was not needed on the walk; remove it", k, why)
		}
	}
}

// validForms are forms each POST route takes, by route; the walk leaves
// out one required field at a time.
func validForms(n string) map[string]url.Values {
	return map[string]url.Values{
		"POST /server/{n}":               form("server_name", "renamed"),
		"POST /reset/{n}":                form("type", "sw"),
		"POST /boot/{n}/rescue":          form("os", "linux", "arch", "64", "authorized_key[]", edKeyFP),
		"POST /boot/{n}/linux":           form("dist", "Debian 12 base", "arch", "64", "lang", "en", "authorized_key[]", edKeyFP),
		"POST /key":                      form("name", "laptop", "data", edKey),
		"POST /key/{fp}":                 form("name", "laptop2"),
		"POST /server/{n}/cancellation":  form("cancellation_date", "2030-06-01"),
		"POST /order/server/transaction": form("product_id", "AX42", "authorized_key[]", edKeyFP, "location", "FSN1"),
	}
}

// walkRequiredFields sends each POST route's form without each field the
// description requires: 400 INVALID_INPUT naming it as missing.
func walkRequiredFields(t *testing.T, w *walker, n string) {
	t.Helper()
	forms := validForms(n)
	for _, r := range w.v.e.Routes() {
		op, _ := w.d.op(r)
		method, path, _ := strings.Cut(r, " ")
		if op == nil || method != "POST" || len(op.requiredForm()) == 0 {
			continue
		}
		valid, ok := forms[r]
		if !ok {
			t.Errorf("route %s requires %v: give the walk a valid form for it", r, op.requiredForm())
			continue
		}
		path = strings.NewReplacer("{n}", n[1:], "{fp}", edKeyFP).Replace(path)
		for _, field := range op.requiredForm() {
			f := url.Values{}
			for k, vs := range valid {
				if strings.TrimSuffix(k, "[]") != field {
					f[k] = vs
				}
			}
			a := w.call("POST", path, f)
			var e errorEnvelope
			_ = json.Unmarshal(a.body, &e)
			if a.status != 400 || e.Error.Code != "INVALID_INPUT" || !slices.Contains(e.Error.Missing, field) {
				t.Errorf("%s without %s: %d %s, want 400 INVALID_INPUT missing %s", r, field, a.status, a.body, field)
			}
		}
	}
}

// walkUnknownIDs calls every route with a path parameter for a server,
// key, product or transaction that does not exist, and every route
// without credentials.
func walkUnknownIDs(t *testing.T, w *walker) {
	t.Helper()
	ids := strings.NewReplacer("{n}", "1", "{fp}", rsaFP, "product/{id}", "product/9", "transaction/{id}", "transaction/B20300101-0000000-000000")
	for _, r := range w.v.e.Routes() {
		method, path, _ := strings.Cut(r, " ")
		if !strings.Contains(path, "{") {
			continue
		}
		var f url.Values
		if method == "POST" {
			f = validForms("/1")[r]
		}
		if a := w.call(method, ids.Replace(path), f); a.status != 404 {
			t.Errorf("%s for an unknown id: %d %s, want 404", r, a.status, a.body)
		}
	}
	for _, r := range w.v.e.Routes() {
		method, path, _ := strings.Cut(r, " ")
		want(t, w.callAs("", "", method, strings.NewReplacer("{n}", "1", "{fp}", rsaFP, "{id}", "1").Replace(path), nil), 401, "UNAUTHORIZED")
	}
	want(t, w.call("POST", "/order/server_market/transaction", form("product_id", "1", "authorized_key[]", edKeyFP)), 404, "PRODUCT_NOT_FOUND")
}

// walkServer: the key, the server, its name, resets and Wake on LAN.
func walkServer(t *testing.T, w *walker, n string) {
	t.Helper()
	want(t, w.call("POST", "/key", form("name", "again", "data", edKey)), 409, "KEY_ALREADY_EXISTS")
	want(t, w.call("POST", "/key", form("name", "bad", "data", "ssh-ed25519 !!")), 400, "INVALID_INPUT")
	want(t, w.call("GET", "/key", nil), 200, "")
	want(t, w.call("GET", "/key/"+edKeyFP, nil), 200, "")
	want(t, w.call("POST", "/key/"+edKeyFP, form("name", "laptop2")), 200, "")

	want(t, w.call("GET", "/server", nil), 200, "")
	want(t, w.call("GET", "/server"+n, nil), 200, "")
	want(t, w.call("POST", "/server"+n, form("server_name", "renamed")), 200, "")
	want(t, w.call("POST", "/server"+n, form("server_name", "bad\tname")), 400, "INVALID_INPUT")

	want(t, w.call("GET", "/reset", nil), 200, "")
	want(t, w.call("GET", "/reset"+n, nil), 200, "")
	want(t, w.call("POST", "/reset"+n, form("type", "power")), 400, "INVALID_INPUT")
	want(t, w.call("POST", "/reset"+n, form("type", "man")), 200, "")
	want(t, w.call("POST", "/reset"+n, form("type", "hw")), 409, "RESET_MANUAL_ACTIVE")
	w.v.clock.advance(2 * time.Minute)
	want(t, w.call("POST", "/reset"+n, form("type", "sw")), 200, "")

	want(t, w.call("GET", "/wol"+n, nil), 200, "")
	want(t, w.call("POST", "/wol"+n, nil), 200, "")
	w.v.e.SetRateLimit("GET /wol/{id}", robot.Limit{Max: 1, Interval: time.Hour})
	want(t, w.call("GET", "/wol"+n, nil), 200, "")
	want(t, w.call("GET", "/wol"+n, nil), 403, "RATE_LIMIT_EXCEEDED")
}

// walkBoot: the boot overview, rescue and Linux, one at a time.
func walkBoot(t *testing.T, w *walker, n string) {
	t.Helper()
	boot := "/boot" + n
	want(t, w.call("GET", boot, nil), 200, "")
	want(t, w.call("GET", boot+"/rescue", nil), 200, "")
	want(t, w.call("GET", boot+"/rescue/last", nil), 404, "NOT_FOUND")
	want(t, w.call("POST", boot+"/rescue", form("os", "plan9", "arch", "64")), 400, "INVALID_INPUT")
	want(t, w.call("POST", boot+"/rescue", form("os", "linux", "arch", "64", "authorized_key[]", edKeyFP)), 200, "")
	want(t, w.call("GET", boot, nil), 200, "")
	want(t, w.call("GET", boot+"/rescue", nil), 200, "")
	want(t, w.call("POST", boot+"/rescue", form("os", "linux", "arch", "64")), 409, "BOOT_ALREADY_ENABLED")
	want(t, w.call("POST", boot+"/linux", validForms(n)["POST /boot/{n}/linux"]), 409, "BOOT_ALREADY_ENABLED")
	want(t, w.call("DELETE", boot+"/rescue", nil), 200, "")
	want(t, w.call("GET", boot+"/rescue/last", nil), 200, "")

	want(t, w.call("GET", boot+"/linux", nil), 200, "")
	want(t, w.call("GET", boot+"/linux/last", nil), 404, "NOT_FOUND")
	want(t, w.call("POST", boot+"/linux", form("dist", "Windows 95", "arch", "64", "lang", "en")), 400, "INVALID_INPUT")
	want(t, w.call("POST", boot+"/linux", validForms(n)["POST /boot/{n}/linux"]), 200, "")
	want(t, w.call("GET", boot+"/linux", nil), 200, "")
	want(t, w.call("GET", boot, nil), 200, "")
	want(t, w.call("POST", boot+"/rescue", form("os", "linux", "arch", "64")), 409, "BOOT_ALREADY_ENABLED")
	want(t, w.call("DELETE", boot+"/linux", nil), 200, "")
	want(t, w.call("GET", boot+"/linux/last", nil), 200, "")
}

// walkOrders: the catalog, the server market and an order of each.
func walkOrders(t *testing.T, w *walker) {
	t.Helper()
	want(t, w.call("GET", "/order/server/product", nil), 200, "")
	want(t, w.call("GET", "/order/server/product/AX42", nil), 200, "")
	want(t, w.call("POST", "/order/server/transaction", form("product_id", "AX42", "location", "XYZ1", "authorized_key[]", edKeyFP)), 400, "INVALID_INPUT")
	std := w.call("POST", "/order/server/transaction", validForms("")["POST /order/server/transaction"])
	want(t, std, 201, "")
	var market []struct {
		Product struct {
			ID int `json:"id"`
		} `json:"product"`
	}
	a := w.call("GET", "/order/server_market/product", nil)
	if err := json.Unmarshal(a.body, &market); err != nil || len(market) == 0 {
		t.Fatalf("market products: %v %s", err, a.body)
	}
	id := itoa(market[0].Product.ID)
	want(t, w.call("GET", "/order/server_market/product/"+id, nil), 200, "")
	mkt := w.call("POST", "/order/server_market/transaction", form("product_id", id, "authorized_key[]", edKeyFP))
	want(t, mkt, 201, "")
	for _, o := range []struct {
		kind string
		a    answer
	}{{"server", std}, {"server_market", mkt}} {
		var tx transactionEnvelope
		if err := json.Unmarshal(o.a.body, &tx); err != nil {
			t.Fatal(err)
		}
		// In process, then delivered by the second read.
		one := "/order/" + o.kind + "/transaction/" + tx.Transaction.ID
		want(t, w.call("GET", one, nil), 200, "")
		want(t, w.call("GET", "/order/"+o.kind+"/transaction", nil), 200, "")
		var ready transactionEnvelope
		a := w.call("GET", one, nil)
		if err := json.Unmarshal(a.body, &ready); err != nil || ready.Transaction.Status != "ready" || ready.Transaction.ServerNumber == nil {
			t.Errorf("%s after two reads: %s, want it delivered", one, a.body)
			continue
		}
		// The order of a delivered server is revoked once.
		reversal := "/server/" + itoa(*ready.Transaction.ServerNumber) + "/reversal"
		want(t, w.call("POST", reversal, form("reversal_reason", "Ordered by mistake")), 200, "")
		want(t, w.call("POST", reversal, nil), 409, "SERVER_REVERSAL_NOT_POSSIBLE")
	}
}

// walkCancellation: read, cancel for a date, read, withdraw, cancel now.
func walkCancellation(t *testing.T, w *walker, n string) {
	t.Helper()
	c := "/server" + n + "/cancellation"
	want(t, w.call("GET", c, nil), 200, "")
	want(t, w.call("DELETE", c, nil), 409, "CONFLICT")
	want(t, w.call("POST", c, form("cancellation_date", "2001-01-01")), 400, "INVALID_INPUT")
	want(t, w.call("POST", c, form("cancellation_date", "2030-06-01", "cancellation_reason", "Project ended")), 200, "")
	want(t, w.call("GET", c, nil), 200, "")
	want(t, w.call("DELETE", c, nil), 204, "")
	want(t, w.call("POST", c, form("cancellation_date", "now")), 200, "")
	want(t, w.call("GET", c, nil), 200, "")
}
