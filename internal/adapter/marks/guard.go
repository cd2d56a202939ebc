package marks

import (
	"context"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Get reads one machine: an adapter's Get.
type Get func(ctx context.Context, id string) (adapter.Machine, error)

// Managed reads machine id and refuses it (Refuse) when it lacks the
// managed label, unless marking: the call writes the mark itself, as an
// import's first apply does (rule 8, only marked machines are changed, of
// internal/adapter's package documentation). verb names the call
// ("delete"), noun the backend's machines ("server"), so the refusal
// names `server 7 ("web")`.
func (l Labels) Managed(ctx context.Context, get Get, id, verb, noun string, marking bool) (adapter.Machine, error) {
	m, err := get(ctx, id)
	if err == nil && !m.Managed && !marking {
		err = l.Refuse(verb, noun+" "+id+" ("+strconv.Quote(m.Name)+")", id)
	}
	return m, err
}

// Update is what an Update with req writes as labels (rule 9, updates and
// the mark): it refuses a user's label under the prefix, reads the machine
// unless req.Current is a managed one or req carries the mark (Managed),
// and returns the labels to store, the user's and the mark
// (UpdateRequest.Writes).
func (l Labels) Update(ctx context.Context, get Get, id, noun string, req adapter.UpdateRequest) (map[string]string, error) {
	if err := l.CheckUser(req.Labels); err != nil {
		return nil, err
	}
	cur := req.Current
	if cur == nil || !cur.Managed && req.Mark == nil {
		m, err := l.Managed(ctx, get, id, "change", noun, req.Mark != nil)
		if err != nil {
			return nil, err
		}
		cur = &m
	}
	return l.Put(req.Writes(*cur)), nil
}
