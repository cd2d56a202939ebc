package marks_test

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
)

// machines is a backend of two servers, 1 marked and 2 not, that counts
// its reads.
type machines struct{ reads int }

func (b *machines) get(_ context.Context, id string) (adapter.Machine, error) {
	b.reads++
	m := adapter.Machine{ID: id, Name: "web", Labels: map[string]string{"team": "ops"}}
	switch id {
	case "1":
		m.SetMark(true, adapter.Mark{Key: "k", Fingerprint: "f", Claim: "c"})
	case "2":
	default:
		return m, adapter.Errorf(adapter.NotFound, "no server %s", id)
	}
	return m, nil
}

// Managed refuses an unmarked machine naming it, unless the call marks it,
// and passes a failed read on.
func TestManaged(t *testing.T) {
	l, b, ctx := marks.Default(), &machines{}, context.Background()
	if _, err := l.Managed(ctx, b.get, "1", "delete", "server", false); err != nil {
		t.Errorf("a marked server: %v", err)
	}
	_, err := l.Managed(ctx, b.get, "2", "delete", "server", false)
	if !adapter.Is(err, adapter.AccessDenied) || !errors.Is(err, adapter.ErrUnmarked) || !strings.Contains(err.Error(), `delete: server 2 ("web")`) {
		t.Errorf("an unmarked server: %v", err)
	}
	if _, err := l.Managed(ctx, b.get, "2", "change", "server", true); err != nil {
		t.Errorf("an unmarked server the call marks: %v", err)
	}
	if _, err := l.Managed(ctx, b.get, "3", "delete", "server", false); !adapter.IsNotFound(err) {
		t.Errorf("a gone server: %v", err)
	}
}

// Update writes the user's labels beside the mark, keeps what the request
// does not set, reads only when the caller's machine cannot be trusted,
// refuses an unmarked machine unless the request marks it, and refuses a
// label under the prefix before any read.
func TestUpdate(t *testing.T) {
	l, ctx := marks.Default(), context.Background()
	b := &machines{}
	cur, _ := b.get(ctx, "1")
	b.reads = 0
	for _, c := range []struct {
		name    string
		id      string
		req     adapter.UpdateRequest
		want    map[string]string
		reads   int
		refused bool
	}{
		{name: "labels over the caller's machine", id: "1", req: adapter.UpdateRequest{Current: &cur, Labels: map[string]string{"a": "b"}},
			want: l.Put(map[string]string{"a": "b"}, cur.Mark())},
		{name: "nothing set, read", id: "1", want: l.Put(cur.Labels, cur.Mark()), reads: 1},
		{name: "unmarked", id: "2", reads: 1, refused: true},
		{name: "the caller's machine unmarked", id: "2", req: adapter.UpdateRequest{Current: &adapter.Machine{ID: "2"}}, reads: 1, refused: true},
		{name: "unmarked, the request marks it", id: "2", req: adapter.UpdateRequest{Mark: &adapter.Mark{Key: "k2", Fingerprint: "f2"}},
			want: l.Put(cur.Labels, adapter.Mark{Key: "k2", Fingerprint: "f2"}), reads: 1},
		{name: "reserved label", id: "1", req: adapter.UpdateRequest{Labels: map[string]string{l.Name(marks.FieldKey): "forged"}}, refused: true},
	} {
		b.reads = 0
		got, err := l.Update(ctx, b.get, c.id, "server", c.req)
		if (err != nil) != c.refused || !maps.Equal(got, c.want) || b.reads != c.reads {
			t.Errorf("%s: %v, %v after %d reads; want %v after %d reads, refused %t", c.name, got, err, b.reads, c.want, c.reads, c.refused)
		}
	}
}
