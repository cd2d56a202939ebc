package marks_test

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
)

// The released spelling of the labels: a server marked by an older version
// must read as marked, with every field, however many foreign labels it has.
func TestDefaultReadsTheReleasedLabels(t *testing.T) {
	claim := "0000000a" + "0123456789abcdef01234567"
	labels := map[string]string{
		"compute.seedcompute.io/managed":     "true",
		"compute.seedcompute.io/key":         "k1",
		"compute.seedcompute.io/fingerprint": "f1",
		"compute.seedcompute.io/claim":       claim,
		"compute.seedcompute.io/unconfirmed": "true",
		"compute.seedcompute.io/later":       "a field of a later version",
		"team":                               "ops",
		"example.com/role":                   "web",
	}
	managed, m, user := marks.Default().Read(labels)
	want := adapter.Mark{Key: "k1", Fingerprint: "f1", Claim: claim, Unconfirmed: true}
	if !managed || m != want {
		t.Errorf("read %v, %+v; want managed, %+v", managed, m, want)
	}
	if !maps.Equal(user, map[string]string{"team": "ops", "example.com/role": "web"}) {
		t.Errorf("user labels %v, want team and example.com/role only", user)
	}
}

// A mark written before claims existed reads as confirmed and unclaimed;
// a managed label of another value, or none, is no mark.
func TestDefaultReadsOlderAndForeignLabels(t *testing.T) {
	managed, m, _ := marks.Default().Read(map[string]string{"compute.seedcompute.io/managed": "true", "compute.seedcompute.io/key": "k"})
	if !managed || m.Claim != "" || m.Unconfirmed {
		t.Errorf("a mark without claim: %v %+v", managed, m)
	}
	for _, labels := range []map[string]string{nil, {"compute.seedcompute.io/managed": "false"}, {"managed": "true", "key": "k"}} {
		if managed, _, user := marks.Default().Read(labels); managed || user == nil {
			t.Errorf("labels %v read as managed %v, user %v", labels, managed, user)
		}
	}
}

// What Put writes reads back as the same mark and user labels, and Stored
// of the machine read is exactly what Put wrote (so an update that changes
// nothing writes nothing).
func TestPutReadsBack(t *testing.T) {
	user := map[string]string{"team": "ops"}
	for _, m := range []adapter.Mark{
		{Key: "k", Fingerprint: "f", Claim: "c", Unconfirmed: true},
		{Key: "k", Fingerprint: "f"},
	} {
		stored := marks.Default().Put(user, m)
		if _, ok := stored["compute.seedcompute.io/claim"]; ok != (m.Claim != "") {
			t.Errorf("mark %+v: claim label written %v", m, ok)
		}
		if _, ok := stored["compute.seedcompute.io/unconfirmed"]; ok != m.Unconfirmed {
			t.Errorf("mark %+v: unconfirmed label written %v", m, ok)
		}
		managed, got, gotUser := marks.Default().Read(stored)
		if !managed || got != m || !maps.Equal(gotUser, user) {
			t.Errorf("mark %+v wrote %v, read back %v %+v %v", m, stored, managed, got, gotUser)
		}
		var machine adapter.Machine
		machine.Labels = gotUser
		machine.SetMark(managed, got)
		if machine.Mark() != m || !machine.Managed {
			t.Errorf("stamped %+v, want mark %+v", machine, m)
		}
		if s := marks.Default().Stored(machine); !maps.Equal(s, stored) {
			t.Errorf("stored %v, want %v", s, stored)
		}
	}
	if len(user) != 1 {
		t.Errorf("Put changed the user's labels: %v", user)
	}
}

func TestSelectorsAndReserved(t *testing.T) {
	if got := marks.Default().Selector(); got != "compute.seedcompute.io/managed=true" {
		t.Errorf("selector %q", got)
	}
	if got := marks.Default().KeySelector("abc"); got != "compute.seedcompute.io/key=abc" {
		t.Errorf("key selector %q", got)
	}
	if !marks.Default().Reserved("compute.seedcompute.io/x") || marks.Default().Reserved("compute.seedcompute.io") || marks.Default().Reserved("team") {
		t.Error("reserved")
	}
}

// A user's label under the prefix would forge the mark: InvalidInput on
// the labels, naming the label.
func TestCheckUserRefusesTheReservedPrefix(t *testing.T) {
	if err := marks.Default().CheckUser(map[string]string{"team": "ops", "example.com/x": "y"}); err != nil {
		t.Errorf("ordinary labels refused: %v", err)
	}
	err := marks.Default().CheckUser(map[string]string{"compute.seedcompute.io/managed": "true"})
	var e *adapter.Error
	if !errors.As(err, &e) || e.Code != adapter.InvalidInput || e.Field != adapter.FieldLabels {
		t.Errorf("forged mark: %v", err)
	}
}

// The labels' refusal names the managed label the machine lacks.
func TestLabelsRefusalNamesTheLabel(t *testing.T) {
	lab := marks.Default().Refuse("delete", `server 5 ("a")`, "5")
	if !strings.Contains(lab.Message, `server 5 ("a") carries no compute.seedcompute.io/managed label`) || strings.HasSuffix(lab.Message, ", ") {
		t.Errorf("labels' refusal: %s", lab.Message)
	}
}
