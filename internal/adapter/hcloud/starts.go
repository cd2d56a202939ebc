package hcloud

import (
	"context"
	"slices"
	"sync"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A create that starts its server answers with the start as one of its
// next_actions, and the API may show the server off between create_server
// and that start_server. The status alone would read such a server as
// stopped, and a caller that wants it on would power it on a second time.
// So the adapter follows the start action itself: a server whose start is
// still running is pending (rule 4, conservative states, of
// internal/adapter's package documentation), and Power(on) waits for that
// start instead of sending another.
//
// Starts are learnt from the create's next_actions. For a server this
// process did not create (an interrupted apply's, adopted on the rerun, or
// read by a later command) the project's running server actions are asked
// once, when the server is first seen off; a server found without a start
// is settled and not asked about again: nothing queues a start behind an
// off server's back except a create.

// maxActionIDs is how many actions one GET /actions asks for, as hcloud-go's
// own waiter does.
const maxActionIDs = 25

// starts is what the account knows of its servers' starts.
type starts struct {
	mu sync.Mutex
	// pending maps a server to its start action, running when last seen.
	pending map[int64]int64
	// settled holds servers known to have no start queued.
	settled map[int64]bool
}

// follow records a create's next actions for server id.
func (st *starts) follow(id int64, next []*hcloud.Action) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.init()
	for _, a := range next {
		if a != nil && a.Command == "start_server" && a.Status == hcloud.ActionStatusRunning {
			st.pending[id] = a.ID
			delete(st.settled, id)
			return
		}
	}
	delete(st.pending, id)
	st.settled[id] = true
}

// done forgets a start that has taken effect, or ended.
func (st *starts) done(id int64) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.init()
	delete(st.pending, id)
	st.settled[id] = true
}

func (st *starts) init() {
	if st.pending == nil {
		st.pending, st.settled = map[int64]int64{}, map[int64]bool{}
	}
}

// lookup says what is known of server id's start.
func (st *starts) lookup(id int64) (action int64, pending, settled bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	action, pending = st.pending[id]
	return action, pending, st.settled[id]
}

// machines maps servers onto Machines, reporting as pending every server
// that is off while its start still runs.
func (a *account) machines(ctx context.Context, servers []*hcloud.Server) []adapter.Machine {
	out := make([]adapter.Machine, len(servers))
	var off []*hcloud.Server
	for i, s := range servers {
		out[i] = toMachine(s)
		switch s.Status {
		case hcloud.ServerStatusOff:
			off = append(off, s)
		case hcloud.ServerStatusRunning, hcloud.ServerStatusDeleting:
			// Running is what the start makes; a server being deleted
			// starts no more.
			if _, pending, _ := a.starts.lookup(s.ID); pending {
				a.starts.done(s.ID)
			}
		}
	}
	if len(off) == 0 {
		return out
	}
	starting := a.startsRunning(ctx, off)
	for i, s := range servers {
		if _, ok := starting[s.ID]; ok && s.Status == hcloud.ServerStatusOff {
			out[i].State = adapter.StatePending
		}
	}
	return out
}

// machine is machines for one server.
func (a *account) machine(ctx context.Context, s *hcloud.Server) adapter.Machine {
	return a.machines(ctx, []*hcloud.Server{s})[0]
}

// startsRunning returns, for those of servers whose start still runs, the
// start action's id. A start that succeeded after the server was read off
// counts as running for that read: the server read is older than the start,
// and the next read shows it on. A failed read leaves the servers it was
// about pending: taking them as stopped is what this guards against.
func (a *account) startsRunning(ctx context.Context, servers []*hcloud.Server) map[int64]int64 {
	out := map[int64]int64{}
	var unknown []int64
	byAction := map[int64]int64{}
	for _, s := range servers {
		action, pending, settled := a.starts.lookup(s.ID)
		switch {
		case pending:
			byAction[action] = s.ID
		case !settled:
			unknown = append(unknown, s.ID)
		}
	}
	if len(unknown) > 0 {
		for id, action := range a.discoverStarts(ctx, unknown) {
			out[id] = action
		}
	}
	ids := make([]int64, 0, len(byAction))
	for action := range byAction {
		ids = append(ids, action)
	}
	slices.Sort(ids)
	for chunk := range slices.Chunk(ids, maxActionIDs) {
		acts, _, err := a.client.Action.List(ctx, hcloud.ActionListOpts{ID: chunk})
		if err != nil {
			for _, action := range chunk {
				out[byAction[action]] = action
			}
			continue
		}
		status := map[int64]hcloud.ActionStatus{}
		for _, act := range acts {
			status[act.ID] = act.Status
		}
		for _, action := range chunk {
			switch status[action] {
			case hcloud.ActionStatusRunning:
				out[byAction[action]] = action
			case hcloud.ActionStatusSuccess:
				out[byAction[action]] = action
				a.starts.done(byAction[action])
			default:
				// Failed, or unknown to the API: the status speaks now.
				a.starts.done(byAction[action])
			}
		}
	}
	return out
}

// discoverStarts asks the project's running server actions, once, for
// servers this process knows nothing of, follows the starts it finds and
// returns them by server. When the actions cannot be read, every server
// is returned with action 0: unknown, so not taken as stopped.
func (a *account) discoverStarts(ctx context.Context, servers []int64) map[int64]int64 {
	out := map[int64]int64{}
	acts, err := a.client.Server.Action.All(ctx, hcloud.ActionListOpts{Status: []hcloud.ActionStatus{hcloud.ActionStatusRunning}})
	if err != nil {
		for _, id := range servers {
			out[id] = 0
		}
		return out
	}
	found := map[int64]*hcloud.Action{}
	for _, act := range acts {
		if act.Command != "start_server" {
			continue
		}
		for _, r := range act.Resources {
			if r != nil && r.Type == hcloud.ActionResourceTypeServer && slices.Contains(servers, r.ID) {
				found[r.ID] = act
			}
		}
	}
	for _, id := range servers {
		act := found[id]
		if act == nil {
			a.starts.follow(id, nil)
			continue
		}
		a.starts.follow(id, []*hcloud.Action{act})
		out[id] = act.ID
	}
	return out
}

// awaitStart waits for the start of server s when its create queued one
// that has not been seen to end, and reports whether it did: that start
// has then switched the server on, or failed.
func (a *account) awaitStart(ctx context.Context, what string, s *hcloud.Server) (bool, error) {
	action, pending, settled := a.starts.lookup(s.ID)
	if !pending && !settled {
		found, ok := a.discoverStarts(ctx, []int64{s.ID})[s.ID]
		if ok && found == 0 {
			return true, adapter.Errorf(adapter.Transient, "%s: whether the server's create is still starting it could not be read; it is not powered on twice", what)
		}
		action, pending = found, ok
	}
	if !pending {
		return false, nil
	}
	err := a.waitAction(ctx, what+": wait for the start already under way", &hcloud.Action{ID: action, Status: hcloud.ActionStatusRunning})
	a.starts.done(s.ID)
	return true, err
}
