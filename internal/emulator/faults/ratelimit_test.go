package faults

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

func TestRateLimitBudget(t *testing.T) {
	a := &api{}
	now := time.Unix(1_700_000_000, 0)
	var mu sync.Mutex
	m := New(a, Config{APIPrefix: "/v1", Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	m.SetRateLimit(2, time.Hour)

	for i, want := range []string{"1", "0"} {
		rec := do(t, m, "GET", "/v1/servers", "")
		if rec.Code != 200 {
			t.Fatalf("call %d: status %d", i, rec.Code)
		}
		if got := rec.Header().Get("RateLimit-Remaining"); got != want {
			t.Errorf("call %d: remaining %q, want %q", i, got, want)
		}
		if got := rec.Header().Get("RateLimit-Limit"); got != "2" {
			t.Errorf("call %d: limit %q", i, got)
		}
	}
	rec := do(t, m, "GET", "/v1/servers", "")
	if rec.Code != http.StatusTooManyRequests || errorCode(t, rec) != "rate_limit_exceeded" {
		t.Fatalf("over budget: status %d body %s", rec.Code, rec.Body)
	}
	// Two requests are missing, one comes back every 30 minutes.
	if got, want := rec.Header().Get("RateLimit-Reset"), "1700003600"; got != want {
		t.Errorf("reset %q, want %q", got, want)
	}
	if a.calls.Load() != 2 {
		t.Errorf("api reached %d times, want 2", a.calls.Load())
	}

	mu.Lock()
	now = now.Add(30 * time.Minute)
	mu.Unlock()
	if rec := do(t, m, "GET", "/v1/servers", ""); rec.Code != 200 {
		t.Fatalf("after refill: status %d", rec.Code)
	}
	m.SetRateLimit(0, 0)
	if rec := do(t, m, "GET", "/v1/servers", ""); rec.Header().Get("RateLimit-Limit") != "" {
		t.Error("headers still sent after the budget was removed")
	}
}
