package poweraction

import (
	"regexp"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestRescueDocFromNotes: what the documentation and the progress say of
// each backend's boot into rescue comes from its adapter's notes, only for
// adapters that offer it, and the action's own text names no backend.
func TestRescueDocFromNotes(t *testing.T) {
	notes := map[string]string{adapter.NoteRescueWait: "WAIT-NOTE", adapter.NoteRescueLogin: "with LOGIN-NOTE", adapter.NoteRescueUndo: "UNDO-NOTE"}
	reg := adapter.NewRegistry(
		adapter.Definition{Kind: "alpha", Block: "alpha", Capabilities: adapter.Capabilities{adapter.CapRescue}, Notes: notes},
		adapter.Definition{Kind: "beta", Block: "beta", Notes: map[string]string{adapter.NoteRescueWait: "NOT-OFFERED"}},
	)
	var k kind
	for _, c := range kinds {
		if c.rescue {
			k = c
		}
	}
	doc := summaryOf(reg, k) + nextPlanOf(reg, k)
	for _, want := range []string{"On `alpha` accounts, it waits until WAIT-NOTE.", "On `alpha` accounts, log in with LOGIN-NOTE.",
		"On `alpha` accounts, UNDO-NOTE."} {
		if !strings.Contains(doc, want) {
			t.Errorf("the rescue documentation lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "NOT-OFFERED") {
		t.Errorf("the rescue documentation repeats the note of an adapter that does not offer it:\n%s", doc)
	}
	if got := loginLine(reg.Definitions()[0]); got != "log in as root with LOGIN-NOTE" {
		t.Errorf("the progress's way in is %q, want the adapter's note", got)
	}
	backend := regexp.MustCompile(`(?i)hetzner|robot|hcloud|proxmox`)
	for _, text := range []string{k.summary, k.nextPlan} {
		if m := backend.FindString(text); m != "" {
			t.Errorf("the action's own text names the backend %q; put it in the adapter's notes", m)
		}
	}
}

// TestRescueUnreachableSaysTheWritesRetryUntilTimeout: the boot into rescue
// retries an unreachable endpoint until `timeout` once it is past its read,
// and its `unreachable` attribute says so; the other actions' does not.
func TestRescueUnreachableSaysTheWritesRetryUntilTimeout(t *testing.T) {
	for _, k := range kinds {
		said := strings.Contains(unreachableOfRescue(k), "retry an endpoint they cannot reach until `timeout`")
		if said != k.rescue {
			t.Errorf("the `unreachable` of %s says the steps retry until timeout: %t, want %t", k.typeName(), said, k.rescue)
		}
	}
}
