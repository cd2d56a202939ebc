package marks_test

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
)

var pveText = marks.Text{Prefix: "compute-", ManagedValue: "v1"}

// The block written as released, after the user's text, and read back.
func TestTextWritesTheReleasedBlock(t *testing.T) {
	m := adapter.Mark{Key: "k", Fingerprint: "f", Claim: "c", Unconfirmed: true}
	got := pveText.Put("the ops team's\n\n", m)
	want := "the ops team's\n\ncompute-managed: v1\ncompute-key: k\ncompute-fingerprint: f\ncompute-claim: c\ncompute-unconfirmed: true\n"
	if got != want {
		t.Errorf("put %q, want %q", got, want)
	}
	if got := pveText.Put(" ", adapter.Mark{Key: "k"}); got != "compute-managed: v1\ncompute-key: k\ncompute-fingerprint: \ncompute-claim: \n" {
		t.Errorf("no user text: %q", got)
	}
	managed, back, user := pveText.Read(got)
	if !managed || back != m || user != "the ops team's" {
		t.Errorf("read back %v %+v %q", managed, back, user)
	}
}

// A description written by hand around the block, with CRLF line ends and
// lines that only look like the mark, keeps every line of the user's.
func TestTextToleratesForeignLines(t *testing.T) {
	desc := "db of ops\r\nnote: compute-key: not ours\r\n compute-key: indented\r\ncompute-managed: v1\r\ncompute-key:  k \r\ncompute-later: x\r\n"
	managed, m, user := pveText.Read(desc)
	if !managed || m.Key != "k" || m.Unconfirmed {
		t.Errorf("read %v %+v", managed, m)
	}
	if want := "db of ops\nnote: compute-key: not ours\n compute-key: indented"; user != want {
		t.Errorf("user text %q, want %q", user, want)
	}
	if managed, _, _ := pveText.Read("compute-managed: v2\n"); managed {
		t.Error("another managed value read as managed")
	}
}

// A user's own line under the prefix, before the mark's block, is the
// user's and survives the next write; one inside the block is the mark's.
func TestTextKeepsTheUsersPrefixedLine(t *testing.T) {
	desc := pveText.Put("db\ncompute-node: rack 3", adapter.Mark{Key: "k"}) + "compute-later: x\n"
	managed, m, user := pveText.Read(desc)
	if !managed || m.Key != "k" || user != "db\ncompute-node: rack 3" {
		t.Errorf("read %v %+v, user text %q", managed, m, user)
	}
	if again := pveText.Put(user, m); !strings.Contains(again, "compute-node: rack 3") || strings.Contains(again, "compute-later") {
		t.Errorf("rewritten as %q", again)
	}
}
