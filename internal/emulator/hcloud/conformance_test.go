package hcloud_test

import (
	"strconv"
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestConformanceHooksRefuseUnknownWords: a word the hooks do not know is an
// error, never a fault quietly not made, which would let a case pass for
// the wrong reason.
func TestConformanceHooksRefuseUnknownWords(t *testing.T) {
	e, _, _ := start(t, emulator.Options{})
	h := e.Conformance()
	id := strconv.FormatInt(e.AddServer(emulator.Server{Name: "seeded"}), 10)
	for _, err := range []error{
		h.FailNext("get", "no_such_class", 1),
		h.FailNext("no_such_op", "server_error", 1),
		h.FailNext("get", "partial_listing", 1),
		func() error { _, err := h.Stage(id, "no_such_situation"); return err }(),
		func() error { _, err := h.Stage("4199999", "deleting"); return err }(),
	} {
		if err == nil {
			t.Errorf("an unknown op, class, situation or server was accepted")
		}
	}
	if rules := e.Faults().Rules(); len(rules) != 0 {
		t.Errorf("refused hooks left rules %+v", rules)
	}
}

// TestConformanceHooksAimAtTheirCall: a fault of one call leaves the others
// alone, Revoke refuses everything, Clear restores, and Stage shows through
// the API.
func TestConformanceHooksAimAtTheirCall(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	h := e.Conformance()
	s := create(t, c, "web-1", nil)
	if err := h.FailNext("delete", "locked", 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Server.GetByID(ctx(t), s.ID); err != nil {
		t.Errorf("a fault of delete failed a read: %v", err)
	}
	if _, _, err := c.Server.DeleteWithResult(ctx(t), s); !hcloud.IsError(err, hcloud.ErrorCodeLocked) {
		t.Errorf("delete under locked: %v", err)
	}
	if err := h.Revoke(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Server.List(ctx(t), hcloud.ServerListOpts{}); !hcloud.IsError(err, hcloud.ErrorCodeUnauthorized) {
		t.Errorf("list with revoked credentials: %v", err)
	}
	before := h.Requests()
	h.Clear()
	raw, err := h.Stage(strconv.FormatInt(s.ID, 10), "unaddressed")
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := c.Server.GetByID(ctx(t), s.ID)
	if err != nil || string(got.Status) != raw || !got.PublicNet.IPv4.IsUnspecified() || !got.PublicNet.IPv6.IsUnspecified() {
		t.Errorf("staged unaddressed: %+v %v, want status %q and no addresses", got, err, raw)
	}
	if n := h.Requests() - before; n != 1 {
		t.Errorf("Requests counted %d for one read", n)
	}
}
