package robot_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

const (
	edKey   = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOcM60RG5p/ziHiTWpXDGCi/d3YQnxFi70EwT3QWoXT3 test@example"
	edKeyFP = "f4:31:c8:f3:97:a0:d0:28:51:32:b0:23:27:7c:42:ad" // ssh-keygen -l -E md5
	rsaKey  = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCgx667EVH8hFHyirCXefy+4Birx26w4rJf0ztBwUZjzJk+f3WJCGNiQ8IRTimGhUtfks7Dad/hEbEo7ydKtUIPjNj8IqIjsFXE3wW2IwIifqHrGUC5hgAKHSdlxS70AP/RNw0DL06DnLzI+JisAZfk91kgA/JqhBDhqzdiYxJ9Nfkr6W+mBtkUBkW1/gYmKfd8gal4BK4zyjmq69mUmcv5wKcwbqJgPwCrZhwpN3MJFDfc07PaaSgckuTweh3PI7sWuyJgOq0iC8bfljtb+j+ByMv4tgzk8Y0YV+kg6z+6RgTGYCOn4P5s6ZkVtc9f2OInh1tdY0VdknB6e+KHsHGL rsa@example"
	rsaFP   = "fb:10:99:1f:36:49:9f:22:42:d7:31:b3:b4:95:97:9a"
)

// TestReadRoutesAnswerInTheSpecsShapes walks every read route and decodes
// each answer strictly into the spec's schema.
func TestReadRoutesAnswerInTheSpecsShapes(t *testing.T) {
	v := start(t, robot.Options{})
	s := v.seed(t, robot.ServerSeed{Product: "EX44", DC: "HEL1-DC2", Name: "web1"})
	if _, err := v.e.AddKey("laptop", edKey); err != nil {
		t.Fatal(err)
	}
	n := itoa(s.Number)

	var list serverList
	v.call(t, "GET", "/server", nil).decode(t, &list)
	if len(list) != 1 || list[0].Server.ServerNumber != s.Number || list[0].Server.ServerIP != v.farm.machine(s.Number).Addr().String() ||
		list[0].Server.DC != "HEL1-DC2" || list[0].Server.Product != "EX44" || list[0].Server.Status != "ready" ||
		!strings.HasPrefix(list[0].Server.ServerIPv6Net, "2001:db8:") {
		t.Errorf("GET /server: %+v", list)
	}
	var one serverEnvelope
	v.call(t, "GET", "/server/"+n, nil).decode(t, &one)
	if one.Server.ServerName != "web1" || !one.Server.WOL || one.Server.LinkedStoragebox != nil {
		t.Errorf("GET /server/n: %+v", one)
	}
	var c cancellationEnvelope
	v.call(t, "GET", "/server/"+n+"/cancellation", nil).decode(t, &c)
	if c.Cancellation.Cancelled || c.Cancellation.CancellationDate != nil {
		t.Errorf("cancellation of a rented server: %+v", c)
	}
	var resets []struct {
		Reset specReset2 `json:"reset"`
	}
	v.call(t, "GET", "/reset", nil).decode(t, &resets)
	var reset struct {
		Reset specReset `json:"reset"`
	}
	v.call(t, "GET", "/reset/"+n, nil).decode(t, &reset)
	if strings.Join(reset.Reset.Type, ",") != "sw,hw,power,power_long,man" || len(resets) != 1 {
		t.Errorf("reset types %v", reset.Reset.Type)
	}
	var wol struct {
		Wol specWol `json:"wol"`
	}
	v.call(t, "GET", "/wol/"+n, nil).decode(t, &wol)
	var boot bootEnvelope
	v.call(t, "GET", "/boot/"+n, nil).decode(t, &boot)
	var rescue rescueEnvelope
	v.call(t, "GET", "/boot/"+n+"/rescue", nil).decode(t, &rescue)
	if rescue.Rescue.Active || rescue.Rescue.Password != nil || boot.Boot.Rescue.Active {
		t.Errorf("rescue of a fresh server: %+v", rescue)
	}
	var keys []keyEnvelope
	v.call(t, "GET", "/key", nil).decode(t, &keys)
	var key keyEnvelope
	v.call(t, "GET", "/key/"+edKeyFP, nil).decode(t, &key)
	if len(keys) != 1 || key.Key.Name != "laptop" || key.Key.Type != "ED25519" || key.Key.Size != 256 {
		t.Errorf("keys %+v, %+v", keys, key)
	}
	var products []struct {
		Product specProduct `json:"product"`
	}
	v.call(t, "GET", "/order/server/product", nil).decode(t, &products)
	var product struct {
		Product specProduct `json:"product"`
	}
	v.call(t, "GET", "/order/server/product/EX44", nil).decode(t, &product)
	if len(products) < 2 || len(product.Product.Prices) != 2 || product.Product.Prices[1].Location != "HEL1" ||
		product.Product.Prices[1].Price.Net != "42.5000" || product.Product.Prices[1].PriceSetup.Net != "39.0000" {
		t.Errorf("product EX44: %+v", product)
	}
	var market []struct {
		Product specMarketProduct `json:"product"`
	}
	v.call(t, "GET", "/order/server_market/product", nil).decode(t, &market)
	var mp struct {
		Product specMarketProduct `json:"product"`
	}
	v.call(t, "GET", "/order/server_market/product/"+itoa(market[0].Product.ID), nil).decode(t, &mp)
	if mp.Product.HDDCount != 2 || mp.Product.Datacenter == "" {
		t.Errorf("market product %+v", mp)
	}
	v.call(t, "GET", "/order/server/product/ZZ99", nil).errorIs(t, 404, "PRODUCT_NOT_FOUND")
	v.call(t, "GET", "/server/999", nil).errorIs(t, 404, "SERVER_NOT_FOUND")
	v.call(t, "GET", "/nothing/here", nil).errorIs(t, 404, "NOT_FOUND")
}

// TestEmptyListsAreNotFound: Robot answers an empty list with 404, not [].
func TestEmptyListsAreNotFound(t *testing.T) {
	v := start(t, robot.Options{})
	v.call(t, "GET", "/server", nil).errorIs(t, 404, "SERVER_NOT_FOUND")
	v.call(t, "GET", "/key", nil).errorIs(t, 404, "NOT_FOUND")
	v.call(t, "GET", "/order/server/transaction", nil).errorIs(t, 404, "NOT_FOUND")
}

func TestAuthRefusesWrongOrMissingCredentials(t *testing.T) {
	v := start(t, robot.Options{})
	v.seed(t, robot.ServerSeed{})
	for _, c := range []struct{ user, password string }{{"", ""}, {testUser, "wrong"}, {"someone", testPassword}} {
		a := v.callAs(t, c.user, c.password, "GET", "/server", nil)
		a.errorIs(t, http.StatusUnauthorized, "UNAUTHORIZED")
		if strings.Contains(string(a.body), testPassword) {
			t.Errorf("the password is in an answer: %s", a.body)
		}
	}
	if a := v.call(t, "GET", "/server", nil); a.status != 200 {
		t.Errorf("right credentials: %d %s", a.status, a.body)
	}
	if got := v.e.Stats()["GET /server"]; got != 4 {
		t.Errorf("GET /server counted %d times, want 4 (refused ones too)", got)
	}
}

func TestRateLimitPerRoute(t *testing.T) {
	v := start(t, robot.Options{})
	s := v.seed(t, robot.ServerSeed{})
	if got := v.e.RateLimits()["POST /reset/{id}"]; got.Max != 50 || got.Interval != time.Hour {
		t.Errorf("default reset budget %+v, want Robot's 50 an hour", got)
	}
	v.e.SetRateLimit("GET /server/{id}", robot.Limit{Max: 2, Interval: time.Hour})
	path := "/server/" + itoa(s.Number)
	for range 2 {
		if a := v.call(t, "GET", path, nil); a.status != 200 {
			t.Fatalf("within the budget: %d %s", a.status, a.body)
		}
	}
	e := v.call(t, "GET", path, nil).errorIs(t, http.StatusForbidden, "RATE_LIMIT_EXCEEDED")
	if e.MaxRequest == nil || *e.MaxRequest != 2 || e.Interval == nil || *e.Interval != 3600 {
		t.Errorf("budget in the error: %+v", e)
	}
	if a := v.call(t, "GET", "/server", nil); a.status != 200 {
		t.Errorf("another route shares the budget: %d", a.status)
	}
	v.clock.advance(time.Hour)
	if a := v.call(t, "GET", path, nil); a.status != 200 {
		t.Errorf("an hour later: %d %s", a.status, a.body)
	}
	off := start(t, robot.Options{Unlimited: true})
	if len(off.e.RateLimits()) != 0 {
		t.Errorf("Unlimited kept budgets")
	}
}

func TestStatsNameRoutesNotValues(t *testing.T) {
	v := start(t, robot.Options{})
	if _, err := v.e.AddKey("k", edKey); err != nil {
		t.Fatal(err)
	}
	v.call(t, "GET", "/key/"+edKeyFP, nil)
	v.call(t, "GET", "/order/server/product/AX42", nil)
	v.call(t, "GET", "/order/server/transaction/B1-2-3", nil)
	st := v.e.Stats()
	for _, k := range []string{"GET /key/{fingerprint}", "GET /order/server/product/{id}", "GET /order/server/transaction/{id}"} {
		if st[k] != 1 {
			t.Errorf("stats %v lack %s", st, k)
		}
	}
}

func itoa(n int) string { return fmtInt(n) }
