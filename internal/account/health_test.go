package account

import "testing"

func TestKeepCheckedAt(t *testing.T) {
	prior := healthValue(true, "", "2026-01-01T00:00:00Z")
	same := healthValue(true, "", "2026-01-01T00:05:00Z")
	if got := keepCheckedAt(prior, same); !got.Equal(prior) {
		t.Fatalf("unchanged health must keep the first check's time, got %v", got)
	}
	down := healthValue(false, "Transient: 503", "2026-01-01T00:10:00Z")
	if got := keepCheckedAt(prior, down); !got.Equal(down) {
		t.Fatalf("changed health must take the new check's time, got %v", got)
	}
	if got := keepCheckedAt(healthValue(false, "Transient: 503", "x"), healthValue(false, "Transient: 502", "y")); got.Attributes()["checked_at"].String() != `"y"` {
		t.Fatalf("a new reason is a new health, got %v", got)
	}
}
