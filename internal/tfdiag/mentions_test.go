package tfdiag

import "testing"

// TestMentions: a field is named by a message only as a word of its own, as
// the regexp `\bfield\b` this replaces said.
func TestMentions(t *testing.T) {
	for _, c := range []struct {
		msg, word string
		want      bool
	}{
		{"user_data is too long", "user_data", true},
		{"the user_data is too long", "user_data", true},
		{"too long: user_data", "user_data", true},
		{"(user_data) is too long", "user_data", true},
		{"user_data_file is too long", "user_data", false},
		{"my_user_data is too long", "user_data", false},
		{"my_user_data, and then user_data", "user_data", true},
		{"hetzner_cloud.endpoint is not a URL", "hetzner_cloud.endpoint", true},
		{"name…", "name", true},
		{"names are unique", "name", false},
		{"", "name", false},
	} {
		if got := mentions(c.msg, c.word); got != c.want {
			t.Errorf("mentions(%q, %q) = %v, want %v", c.msg, c.word, got, c.want)
		}
	}
}
