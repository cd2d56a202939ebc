package marks_test

import (
	"context"
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
)

// labelled is a backend of servers with labels, listed by a key=value
// selector; it counts its creates and relabels.
type labelled struct {
	l                 marks.Labels
	servers           []map[string]string
	creates, relabels int
}

func (b *labelled) machine(id int) adapter.Machine {
	managed, mark, user := b.l.Read(b.servers[id])
	m := adapter.Machine{ID: strconv.Itoa(id), Labels: user}
	m.SetMark(managed, mark)
	return m
}

func (b *labelled) create(l marks.Labels, call adapter.Call, req adapter.CreateRequest) (adapter.Machine, error) {
	return l.Create(context.Background(), marks.Create{Call: call, Request: req, Noun: "server",
		Find: func(_ context.Context, selector string) ([]adapter.Machine, error) {
			k, v, _ := strings.Cut(selector, "=")
			var out []adapter.Machine
			for id, labels := range b.servers {
				if labels[k] == v {
					out = append(out, b.machine(id))
				}
			}
			return out, nil
		},
		Make: func(_ context.Context, labels map[string]string) (adapter.Machine, error) {
			b.creates++
			b.servers = append(b.servers, labels)
			return b.machine(len(b.servers) - 1), nil
		},
		Relabel: func(_ context.Context, id string, labels map[string]string) (adapter.Machine, error) {
			b.relabels++
			n, _ := strconv.Atoi(id)
			b.servers[n] = labels
			return b.machine(n), nil
		}})
}

// A create writes the whole mark beside the user's labels; its retry gets
// the same server without a write; another create with the key adopts it
// while its claim is unconfirmed, writing its own claim; a create with
// another fingerprint is refused naming the server; a user's label under
// the prefix is refused before any call.
func TestCreate(t *testing.T) {
	l := marks.Default()
	// Another create's server, which only the key label tells apart.
	b := &labelled{l: l, servers: []map[string]string{l.Put(nil, adapter.Mark{Key: "k0", Fingerprint: "f0"})}}
	req := adapter.CreateRequest{Name: "web", OfferID: "tiny", Labels: map[string]string{"team": "ops"}}
	call := adapter.Call{IdempotencyKey: "k1", Claim: adapter.NewClaim()}
	m, err := b.create(l, call, req)
	want := l.Put(req.Labels, adapter.Mark{Key: "k1", Fingerprint: adapter.Fingerprint(req), Claim: call.Claim, Unconfirmed: true})
	if err != nil || b.creates != 1 || !maps.Equal(b.servers[1], want) || !m.Managed {
		t.Fatalf("create: %+v, %v; labels %v, want %v", m, err, b.servers, want)
	}
	if again, err := b.create(l, call, req); err != nil || again.ID != m.ID || b.creates+b.relabels != 1 || again.Adopted {
		t.Errorf("retried create: %+v, %v after %d creates and %d relabels", again, err, b.creates, b.relabels)
	}
	other := adapter.Call{IdempotencyKey: "k1", Claim: adapter.NewClaim()}
	if adopted, err := b.create(l, other, req); err != nil || adopted.ID != m.ID || !adopted.Adopted || adopted.Claim != other.Claim || b.relabels != 1 {
		t.Errorf("adoption: %+v, %v after %d relabels", adopted, err, b.relabels)
	}
	req.OfferID = "big"
	if _, err := b.create(l, other, req); !adapter.Is(err, adapter.Conflict) || !strings.Contains(err.Error(), `create server "web"`) {
		t.Errorf("another fingerprint: %v", err)
	}
	req.Labels = map[string]string{l.Name(marks.FieldClaim): "forged"}
	if _, err := b.create(l, adapter.Call{IdempotencyKey: "k2", Claim: adapter.NewClaim()}, req); !adapter.Is(err, adapter.InvalidInput) || b.creates != 1 {
		t.Errorf("a reserved label: %v after %d creates", err, b.creates)
	}
}
