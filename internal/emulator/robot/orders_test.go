package robot_test

import (
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

func order(t *testing.T, v *env, path string, kv ...string) specTransaction {
	t.Helper()
	a := v.call(t, "POST", path, form(kv...))
	if a.status != 201 {
		t.Fatalf("order: %d %s", a.status, a.body)
	}
	var tx transactionEnvelope
	a.decode(t, &tx)
	return tx.Transaction
}

func poll(t *testing.T, v *env, path string) specTransaction {
	t.Helper()
	var tx transactionEnvelope
	v.call(t, "GET", path, nil).decode(t, &tx)
	return tx.Transaction
}

// TestOrderIsDeliveredAfterItsPolls: in process for Polls-1 reads, then
// ready with an unnamed server booted into rescue with the order's keys.
func TestOrderIsDeliveredAfterItsPolls(t *testing.T) {
	v := start(t, robot.Options{Orders: robot.OrderPace{Polls: 3}})
	if _, err := v.e.AddKey("deploy", edKey); err != nil {
		t.Fatal(err)
	}
	tx := order(t, v, "/order/server/transaction", "product_id", "AX42", "location", "NBG1", "authorized_key[]", edKeyFP, "dist", "Rescue system")
	if tx.Status != "in process" || tx.ServerNumber != nil || tx.Product["location"] != "NBG1" || len(tx.AuthorizedKey) != 1 {
		t.Fatalf("placed %+v", tx)
	}
	path := "/order/server/transaction/" + tx.ID
	for i := 1; i < 3; i++ {
		if got := poll(t, v, path); got.Status != "in process" {
			t.Fatalf("poll %d: %s", i, got.Status)
		}
	}
	v.call(t, "GET", "/server", nil).errorIs(t, 404, "SERVER_NOT_FOUND")
	ready := poll(t, v, path)
	if ready.Status != "ready" || ready.ServerNumber == nil || ready.ServerIP == nil || len(ready.HostKey) != 1 {
		t.Fatalf("third poll %+v", ready)
	}
	m := v.farm.machine(*ready.ServerNumber)
	armed, keys, resets := m.state()
	if !armed || len(keys) != 1 || len(resets) != 1 || resets[0] != "hw" || *ready.ServerIP != m.Addr().String() || ready.HostKey[0].Key.Fingerprint != m.RescueHostKeys()[0].SHA256 {
		t.Errorf("delivered machine armed %v keys %v resets %v", armed, keys, resets)
	}
	var one serverEnvelope
	v.call(t, "GET", "/server/"+itoa(*ready.ServerNumber), nil).decode(t, &one)
	if one.Server.ServerName != "" || one.Server.DC != "NBG1-DC3" || one.Server.Product != "AX42" {
		t.Errorf("delivered server %+v", one.Server)
	}
	var list []transactionEnvelope
	v.call(t, "GET", "/order/server/transaction", nil).decode(t, &list)
	if len(list) != 1 {
		t.Errorf("list %+v", list)
	}
	v.clock.advance(31 * 24 * time.Hour)
	v.call(t, "GET", path, nil).errorIs(t, 404, "NOT_FOUND")
}

func TestOrderByDurationAndFailedAndTest(t *testing.T) {
	v := start(t, robot.Options{Orders: robot.OrderPace{Duration: faults.Duration(time.Hour)}})
	if _, err := v.e.AddKey("deploy", edKey); err != nil {
		t.Fatal(err)
	}
	tx := order(t, v, "/order/server/transaction", "product_id", "EX44", "authorized_key[]", edKeyFP)
	path := "/order/server/transaction/" + tx.ID
	for range 5 {
		if poll(t, v, path).Status != "in process" {
			t.Fatal("delivered before its time")
		}
	}
	v.clock.advance(time.Hour)
	var list serverList
	v.call(t, "GET", "/server", nil).decode(t, &list)
	if len(list) != 1 || poll(t, v, path).Status != "ready" {
		t.Errorf("after an hour: servers %+v", list)
	}

	v.e.SetOrderPace(robot.OrderPace{})
	v.e.FailNextOrders(1)
	failed := order(t, v, "/order/server/transaction", "product_id", "AX42", "authorized_key[]", edKeyFP)
	if got := poll(t, v, "/order/server/transaction/"+failed.ID); got.Status != "cancelled" || got.ServerNumber != nil {
		t.Errorf("failed order %+v", got)
	}
	test := order(t, v, "/order/server/transaction", "product_id", "AX42", "authorized_key[]", edKeyFP, "test", "true")
	v.call(t, "GET", "/order/server/transaction/"+test.ID, nil).errorIs(t, 404, "NOT_FOUND")

	v.call(t, "POST", "/order/server/transaction", form("authorized_key[]", edKeyFP)).errorIs(t, 400, "INVALID_INPUT")
	v.call(t, "POST", "/order/server/transaction", form("product_id", "ZZ1", "authorized_key[]", edKeyFP)).errorIs(t, 404, "PRODUCT_NOT_FOUND")
	v.call(t, "POST", "/order/server/transaction", form("product_id", "SX65", "location", "HEL1", "authorized_key[]", edKeyFP)).errorIs(t, 400, "INVALID_INPUT")
	v.call(t, "POST", "/order/server/transaction", form("product_id", "AX42")).errorIs(t, 400, "INVALID_INPUT")
	if got := len(v.e.Servers()); got != 1 {
		t.Errorf("%d servers after failed, test and refused orders, want 1", got)
	}
}

// TestLostOrderIsCommitted: the answer is dropped, the order placed.
func TestLostOrderIsCommitted(t *testing.T) {
	v := start(t, robot.Options{})
	if _, err := v.e.AddKey("deploy", edKey); err != nil {
		t.Fatal(err)
	}
	if err := v.e.LoseNextOrders(1); err != nil {
		t.Fatal(err)
	}
	req := form("product_id", "2345001", "authorized_key[]", edKeyFP)
	resp, err := postForm(v, "/order/server_market/transaction", req)
	if err == nil {
		_ = resp.Body.Close()
		t.Fatalf("a lost order was answered: %d", resp.StatusCode)
	}
	var list []transactionEnvelope
	v.call(t, "GET", "/order/server_market/transaction", nil).decode(t, &list)
	if len(list) != 1 || list[0].Transaction.Status != "ready" {
		t.Fatalf("after a lost order: %+v", list)
	}
	v.call(t, "GET", "/order/server_market/product/2345001", nil).errorIs(t, 404, "PRODUCT_NOT_FOUND")
	v.call(t, "POST", "/order/server_market/transaction", req).errorIs(t, 404, "PRODUCT_NOT_FOUND")
}
