package power

import (
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestWaitsOnSharedRoundsSeeEveryRound: a wait whose checks join the
// account's shared listing rounds, one every adapter.PollInterval, joins
// the next round at once for its first half minute, so it sees every
// round: a machine that runs after 5s is seen within a round of it. A wait
// that slept its own second between checks saw one round in two (a
// machine that ran at 5s was seen at 7s, once per wave of an apply). Past
// its first minutes it checks every ten seconds.
func TestWaitsOnSharedRoundsSeeEveryRound(t *testing.T) {
	for attempt := 1; attempt <= 30; attempt++ {
		if d := RoundBackoff.Delay(attempt); d > adapter.PollInterval/10 {
			t.Fatalf("check %d of a wait on shared rounds sleeps %s first, which skips the round after it (rounds are %s apart)",
				attempt, d, adapter.PollInterval)
		}
	}
	if d := RoundBackoff.Delay(60); d != 10*time.Second {
		t.Errorf("a wait past its first minutes checks every %s, want 10s", d)
	}
	if d := PollBackoff.Delay(1); d < time.Second {
		t.Errorf("a wait that reads the machine directly checks again after %s, want at least a second", d)
	}
}
