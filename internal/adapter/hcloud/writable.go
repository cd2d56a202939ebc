package hcloud

import (
	"context"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// readOnlyReason is what the health check says of a read-only token: the
// listings a plan makes succeed with one, and only the create would fail.
const readOnlyReason = "the token is read-only: it cannot create servers; create a Read & Write API token in the " +
	"Hetzner Cloud Console (the project's Security page, API tokens) and point the token reference at it"

var _ adapter.WriteChecker = (*account)(nil)

// CheckWrite proves that the token may create servers (see proveWrite),
// and that the project has the keys rescue_ssh_keys names; the account's
// apply runs it after Check.
func (a *account) CheckWrite(ctx context.Context) error {
	if err := a.proveWrite(ctx); err != nil {
		return err
	}
	return a.checkRescueKeys(ctx)
}

// proveWrite shows that the token may write, which is what Create needs,
// without changing anything: it updates SSH key 0 with an empty body.
//
// Why this request changes nothing: the API numbers objects from 1, so no
// key has id 0 and a read-write token gets 404 not_found; and the empty
// body names no field to change, so even a key 0 would be left as it was.
// Why it proves the permission: the API refuses every write of a read-only
// token with 403 forbidden (the API description's older 401 token_readonly
// is accepted too), and a token's permission is one for the whole project
// (read, or read and write), so a key write allowed is a server create
// allowed. Were the API ever to look the id up first and answer a
// read-only token not_found, the probe would let that token pass, as the
// check did before it existed: it can miss a read-only token, never refuse
// a read-write one. A key is probed rather than a server so that
// the probe never shows in a server's history, nor in the request counts of
// server routes that tests read to prove nothing was written.
func (a *account) proveWrite(ctx context.Context) error {
	_, _, err := a.client.SSHKey.Update(ctx, &hcloud.SSHKey{ID: 0}, hcloud.SSHKeyUpdateOpts{})
	if err == nil {
		return nil
	}
	if hcloud.IsError(err, hcloud.ErrorCodeForbidden) || hcloud.IsError(err, "token_readonly") {
		return &adapter.Error{Code: adapter.AccessDenied, Field: "token", Err: err, Message: readOnlyReason}
	}
	c := fail("prove that the token may write to the Hetzner Cloud project at "+adapter.Redacted(a.endpoint), err)
	switch adapter.CodeOf(c) {
	case adapter.Transient, adapter.RateLimited, adapter.AccessDenied:
		// No answer about the permission yet: the caller retries or reports.
		return c
	}
	// not_found (the expected answer) or any other refusal of the request
	// itself: the token got past the permission check.
	return nil
}
