package hcloud

import (
	"maps"
	"testing"
)

// TestUpdateApply: what PUT keeps and what it changes, for servers and
// keys alike.
func TestUpdateApply(t *testing.T) {
	str := func(s string) *string { return &s }
	takenBy := func(held string) func(string) bool { return func(n string) bool { return n == held } }
	cases := []struct {
		what       string
		req        updateBody
		held       string // the name another object holds
		wantName   string
		wantLabels map[string]string
		wantErr    bool
	}{
		{what: "nothing given keeps all", req: updateBody{}, wantName: "web", wantLabels: map[string]string{"a": "1"}},
		{what: "an empty name keeps it", req: updateBody{Name: str("")}, wantName: "web", wantLabels: map[string]string{"a": "1"}},
		{what: "a free name renames", req: updateBody{Name: str("db")}, held: "mail", wantName: "db", wantLabels: map[string]string{"a": "1"}},
		{what: "a held name is refused", req: updateBody{Name: str("mail")}, held: "mail", wantName: "web", wantLabels: map[string]string{"a": "1"}, wantErr: true},
		{what: "its own name is no clash", req: updateBody{Name: str("web")}, held: "web", wantName: "web", wantLabels: map[string]string{"a": "1"}},
		{what: "labels replace them all", req: updateBody{Labels: &map[string]string{"b": "2"}}, wantName: "web", wantLabels: map[string]string{"b": "2"}},
	}
	for _, c := range cases {
		name, labels := "web", map[string]string{"a": "1"}
		err := c.req.apply(&name, &labels, takenBy(c.held), "name is already used")
		if (err != nil) != c.wantErr || name != c.wantName || !maps.Equal(labels, c.wantLabels) {
			t.Errorf("%s: name %q labels %v err %v; want %q %v refused=%v", c.what, name, labels, err, c.wantName, c.wantLabels, c.wantErr)
		}
	}
}
