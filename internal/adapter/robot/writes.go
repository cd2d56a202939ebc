package robot

import (
	"context"
	"errors"
	"net/url"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// managed reads server id and refuses one without our mark: such a server
// is never renamed, powered or released (rule 8, only marked machines are
// changed, of internal/adapter's package documentation).
func (a *account) managed(ctx context.Context, id, what string) (server, claimed, error) {
	s, c, err := a.markable(ctx, id, what)
	if err != nil {
		return server{}, claimed{}, err
	}
	if !c.Managed {
		return server{}, claimed{}, adapter.Unmarked{What: what, Machine: describe(s), ID: strconv.Itoa(s.Number),
			Lacks: "carries no claim of this provider in its name"}.Refuse()
	}
	return s, c, nil
}

// Update renames a managed server, keeping its mark, or writes a whole mark
// onto an imported one (req.Mark). Robot has no labels: any is refused.
func (a *account) Update(ctx context.Context, id string, req adapter.UpdateRequest) (adapter.Machine, error) {
	if len(req.Labels) > 0 {
		return adapter.Machine{}, adapter.Errorf(adapter.InvalidInput, "Robot has no labels; remove labels or set them to {}").WithField(adapter.FieldLabels)
	}
	if req.Name != nil && !validName(*req.Name) {
		return adapter.Machine{}, adapter.Errorf(adapter.InvalidInput, "name %s is not a Robot server name: it must be %s",
			adapter.Quoted(adapter.Redacted(*req.Name)), rules.MachineName.Text).WithField(adapter.FieldName)
	}
	var s server
	var c claimed
	var err error
	if req.Mark != nil {
		s, c, err = a.markable(ctx, id, "mark")
	} else {
		s, c, err = a.managed(ctx, id, "rename")
	}
	if err != nil {
		return adapter.Machine{}, err
	}
	next := c
	if req.Name != nil {
		next.Name = *req.Name
	}
	if req.Mark != nil {
		// An update's mark is confirmed unless it says otherwise (see
		// adapter.Mark): the first refresh's confirmation is such a mark.
		// A mark without a claim (a rename) keeps the one the server has.
		mark := req.Mark.Over(adapter.Mark{Claim: c.Claim})
		next.Fingerprint, next.Managed, next.Unconfirmed, next.Claim = shortFP(mark.Fingerprint), true, mark.Unconfirmed, mark.Claim
		if !c.Managed {
			// An imported server: release gives back its name when it
			// already was the resource's, else leaves it unnamed.
			next.WasNamed = s.Name == next.Name
		}
	}
	if next.String() == s.Name {
		return a.toMachine(s), nil
	}
	got, err := a.renamed(ctx, s.Number, next.String())
	if err != nil {
		return adapter.Machine{}, fail("rename "+describe(s), err)
	}
	return a.toMachine(got), nil
}

// markable reads a server a mark may be written onto, for what: any,
// marked or not.
func (a *account) markable(ctx context.Context, id, what string) (server, claimed, error) {
	n, err := parseID(id)
	if err != nil {
		return server{}, claimed{}, err
	}
	s, err := a.getServer(ctx, n)
	if err != nil {
		return server{}, claimed{}, fail(what+" server "+id, err)
	}
	return s, parseName(s.Name), nil
}

// Delete releases the claim: the server name goes back to what it was
// before the claim ("" or the resource's name). With cancel_on_destroy it
// cancels the rental instead, effective at once, and keeps the mark: the
// server is then deleting until Robot drops it, a delete retried meanwhile
// finds it still ours and already cancelled (done), and a create under the
// same name waits for it to go instead of adopting it.
func (a *account) Delete(ctx context.Context, id string) error {
	s, c, err := a.managed(ctx, id, "release")
	if !a.cancelOnDestroy && errors.Is(err, adapter.ErrUnmarked) {
		// A release only gives the name back, so a server that carries no
		// claim has nothing left to release: a delete retried after its
		// answer was lost, or a server its user renamed. Nothing is sent
		// to it. A cancellation is never made on such a server (the
		// branch above does not apply with cancel_on_destroy).
		return nil
	}
	if err != nil {
		return err
	}
	if a.cancelOnDestroy {
		if s.Cancelled {
			return nil
		}
		form := url.Values{"cancellation_date": {"now"}}
		if err := a.c.Post(ctx, "/server/{n}/cancellation", form, nil, strconv.Itoa(s.Number)); err != nil && !isCode(err, "CONFLICT", "SERVER_ALREADY_CANCELLED") {
			return fail("cancel "+describe(s)+" (cancel_on_destroy)", err)
		}
		return nil
	}
	if err := a.rename(ctx, s.Number, c.released()); err != nil {
		return fail("release "+describe(s)+" (restore its name)", err)
	}
	return nil
}
