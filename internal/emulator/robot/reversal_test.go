package robot_test

import (
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

// delivered orders an AX42 and reads it until it is delivered, returning
// its server number.
func delivered(t *testing.T, v *env) int {
	t.Helper()
	tx := order(t, v, "/order/server/transaction", "product_id", "AX42", "location", "FSN1", "authorized_key[]", edKeyFP)
	ready := poll(t, v, "/order/server/transaction/"+tx.ID)
	if ready.ServerNumber == nil {
		t.Fatalf("order not delivered: %+v", ready)
	}
	return *ready.ServerNumber
}

// TestReversalWithdrawsAnOrderedServer: a server ordered through the
// webservice is withdrawn by revoking its order, answered as its
// cancellation with the reason given, its cancellation final, and it
// leaves the account as one cancelled "now" does.
func TestReversalWithdrawsAnOrderedServer(t *testing.T) {
	v := start(t, robot.Options{Orders: robot.OrderPace{Polls: 1}, CancelDelay: time.Minute})
	if _, err := v.e.AddKey("deploy", edKey); err != nil {
		t.Fatal(err)
	}
	n := itoa(delivered(t, v))
	var c cancellationEnvelope
	v.call(t, "POST", "/server/"+n+"/reversal", form("reversal_reason", "Ordered by mistake")).decode(t, &c)
	got := c.Cancellation
	if itoa(got.ServerNumber) != n || !got.Cancelled || got.CancellationDate != "2030-05-06" || got.CancellationReason != "Ordered by mistake" {
		t.Errorf("reversal answered %+v, want server %s cancelled on 2030-05-06 for the reason given", got, n)
	}
	v.call(t, "GET", "/server/"+n+"/cancellation", nil).decode(t, &c)
	if !c.Cancellation.Cancelled {
		t.Errorf("cancellation after the reversal: %+v", c.Cancellation)
	}
	v.call(t, "DELETE", "/server/"+n+"/cancellation", nil).errorIs(t, 409, "CONFLICT")
	v.call(t, "POST", "/server/"+n+"/reversal", nil).errorIs(t, 409, "SERVER_REVERSAL_NOT_POSSIBLE")
	if a := v.call(t, "GET", "/server/"+n, nil); a.status != 200 {
		t.Errorf("server %s before its cancellation takes it: %d %s", n, a.status, a.body)
	}
	v.clock.advance(time.Minute)
	v.call(t, "GET", "/server/"+n, nil).errorIs(t, 404, "SERVER_NOT_FOUND")
	v.call(t, "POST", "/server/"+n+"/reversal", nil).errorIs(t, 404, "SERVER_NOT_FOUND")
}

// TestReversalIsRefusedOutsideItsWindow: a seeded server (not ordered
// through the webservice), one cancelled already, and one whose order is
// ReversalPeriod old answer 409 SERVER_REVERSAL_NOT_POSSIBLE and stay as
// they were; one ordered at the same time, revoked a minute before the
// period ends, is withdrawn.
func TestReversalIsRefusedOutsideItsWindow(t *testing.T) {
	v := start(t, robot.Options{Orders: robot.OrderPace{Polls: 1}})
	if _, err := v.e.AddKey("deploy", edKey); err != nil {
		t.Fatal(err)
	}
	seeded := itoa(v.seed(t, robot.ServerSeed{Product: "AX42"}).Number)
	cancelled := itoa(delivered(t, v))
	v.call(t, "POST", "/server/"+cancelled+"/cancellation", form("cancellation_date", "2030-06-01")).decode(t, &cancellationEnvelope{})
	late, inside := itoa(delivered(t, v)), itoa(delivered(t, v))
	v.clock.advance(robot.ReversalPeriod - time.Minute)
	v.call(t, "POST", "/server/"+inside+"/reversal", nil).decode(t, &cancellationEnvelope{})
	v.clock.advance(time.Minute)

	for _, n := range []string{seeded, cancelled, late} {
		v.call(t, "POST", "/server/"+n+"/reversal", nil).errorIs(t, 409, "SERVER_REVERSAL_NOT_POSSIBLE")
		var c cancellationEnvelope
		v.call(t, "GET", "/server/"+n+"/cancellation", nil).decode(t, &c)
		if want := n == cancelled; c.Cancellation.Cancelled != want || (want && c.Cancellation.CancellationDate != "2030-06-01") {
			t.Errorf("server %s after a refused reversal: %+v", n, c.Cancellation)
		}
	}
}
