package robot

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

const confirmClaim = "0123456789abcdef0123456789abcdef"

// unconfirmedAccount is an account of n servers that a create claimed and
// no refresh has confirmed yet, behind the shared listing a refresh reads
// through, with the listing taken.
func unconfirmedAccount(t *testing.T, n int) (*fake, *adapter.Cached, []adapter.Machine) {
	t.Helper()
	f := newFake()
	for i := range n {
		f.add(100+i, fmt.Sprintf("web-%d~cm~%s~0123abcd~E", i, confirmClaim), "AX42", "FSN1-DC14", statusReady)
	}
	c := adapter.NewCached(testAccount(t, f, nil, nil), nil, 0)
	var ms []adapter.Machine
	for i := range n {
		m, err := c.Get(context.Background(), strconv.Itoa(100+i))
		if err != nil || !m.Unconfirmed || m.Claim != confirmClaim {
			t.Fatalf("Get: %+v, %v", m, err)
		}
		ms = append(ms, m)
	}
	if got := f.count("GET /server/"); got != 0 {
		t.Fatalf("%d single reads before any confirmation; the listing should have answered", got)
	}
	return f, c, ms
}

// A confirmation costs one direct read (Confirm's), the read the mark is
// built from and the rename, whose answer is the server: no read back,
// since every read spends GET /server/{n}'s hourly budget of 200.
func TestConfirmReadsNothingBack(t *testing.T) {
	f, c, ms := unconfirmedAccount(t, 1)
	if wrote, err := c.Confirm(context.Background(), ms[0].ID, confirmClaim); err != nil || !wrote {
		t.Fatalf("Confirm = %v, %v", wrote, err)
	}
	if got := parseName(f.name(100)); got.Unconfirmed || got.Claim != confirmClaim {
		t.Fatalf("name after confirming: %q", f.name(100))
	}
	if reads, writes := f.count("GET /server/"), f.count("POST /server/"); reads != 2 || writes != 1 {
		t.Errorf("a confirmation cost %d reads and %d writes; want 2 and 1", reads, writes)
	}
}

// Once the budget of GET /server/{n} is spent, every refresh that finds an
// unconfirmed claim would spend a request on a 403 and keep the budget
// spent: the first refusal ends the confirmations of the run, and the
// refreshes go on from the listing.
func TestConfirmsStopAtTheRateLimit(t *testing.T) {
	const n = 20
	f, c, ms := unconfirmedAccount(t, n)
	f.mu.Lock()
	f.failRoute, f.failN, f.failStatus = "GET /server/", 1000, 403
	f.failBody = `{"error":{"status":403,"code":"RATE_LIMIT_EXCEEDED","message":"rate limit exceeded","max_request":200,"interval":3600}}`
	f.mu.Unlock()
	for _, m := range ms {
		c.ConfirmOnRefresh(context.Background(), m, confirmClaim)
	}
	if got := f.count("GET /server/"); got != 1 {
		t.Errorf("%d refreshes of unconfirmed claims against a spent budget sent %d reads; want 1", n, got)
	}
	if got := f.count("POST /server/"); got != 0 {
		t.Errorf("%d renames against a spent budget", got)
	}
}
