package adaptertest

import "testing"

// TestCodedNotFound: the proof accepts the API's own not-found codes in a
// 4xx error answer, and nothing else: not another code (not even the
// fleet's generic not_found), a 5xx or a body without the error envelope.
func TestCodedNotFound(t *testing.T) {
	proof := CodedNotFound("gone", "server_not_found")
	for _, c := range []struct {
		status int
		body   string
		want   bool
	}{
		{404, `{"error":{"code":"server_not_found","message":"no server 1"}}`, true},
		{400, `{"error":{"code":"gone"}}`, true},
		{404, `{"error":{"code":"not_found"}}`, false},
		{503, `{"error":{"code":"server_not_found"}}`, false},
		{404, `{"code":"server_not_found"}`, false},
		{404, `not json`, false},
	} {
		if got := proof(c.status, []byte(c.body)); got != c.want {
			t.Errorf("proof(%d, %s) = %v, want %v", c.status, c.body, got, c.want)
		}
	}
}
