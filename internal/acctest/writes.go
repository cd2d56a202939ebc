package acctest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Writes is the part of an emulator's request counts (its Stats) that
// changes something: every route but GET and HEAD, and but those that hold
// one of except (the account's own harmless write check, say). A step that
// must send a machine nothing compares it before and after (NoWritesSince).
func Writes(stats map[string]int, except ...string) map[string]int {
	out := map[string]int{}
	for route, n := range stats {
		if !strings.HasPrefix(route, "GET ") && !strings.HasPrefix(route, "HEAD ") && n > 0 &&
			!slices.ContainsFunc(except, func(s string) bool { return strings.Contains(route, s) }) {
			out[route] = n
		}
	}
	return out
}

// NoWritesSince fails when stats counts a write (Writes, with except) that
// before did not.
func NoWritesSince(before, stats map[string]int, except ...string) error {
	now := Writes(stats, except...)
	if !maps.Equal(before, now) {
		return fmt.Errorf("writes were sent: before %v, now %v", before, now)
	}
	return nil
}
