package poweraction

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"

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
	backend := regexp.MustCompile(`(?i)hetzner|robot|hcloud|proxmox|toy ?cloud`)
	for _, text := range []string{k.summary, k.nextPlan} {
		if m := backend.FindString(text); m != "" {
			t.Errorf("the action's own text names the backend %q; put it in the adapter's notes", m)
		}
	}
}

// TestActionDocsNameNoBackend: every description of every action's schema,
// made over adapters of made-up kinds, names no real backend: what differs
// by backend comes from the adapters' definitions (their notes and
// capabilities), so a new backend is described by its adapter alone.
func TestActionDocsNameNoBackend(t *testing.T) {
	all := adapter.Capabilities{adapter.CapRescue, adapter.CapBootstrap}
	reg := adapter.NewRegistry(adapter.Definition{Kind: "alpha", Block: "alpha", Capabilities: all, Notes: map[string]string{
		adapter.NoteRescueWait: "WAIT-NOTE", adapter.NoteRescueLogin: "with LOGIN-NOTE", adapter.NoteRescueUndo: "UNDO-NOTE",
	}}, adapter.Definition{Kind: "beta", Block: "beta", Notes: map[string]string{adapter.NoteRescue: "RESCUE-NOTE"}})
	backend := regexp.MustCompile(`(?i)hetzner|robot|hcloud|proxmox|toy ?cloud`)
	for _, k := range kinds {
		var resp action.SchemaResponse
		(&Action{kind: k, registry: reg}).Schema(context.Background(), action.SchemaRequest{}, &resp)
		texts := append([]string{resp.Schema.MarkdownDescription}, descriptions(resp.Schema.Attributes)...)
		for _, text := range texts {
			if m := backend.FindString(text); m != "" {
				t.Errorf("%s: a description names the backend %q; say it in the adapter's notes:\n%s", k.typeName(), m, text)
			}
		}
		if inst := resp.Schema.Attributes["instance"].GetMarkdownDescription(); !strings.Contains(inst, "on `alpha` accounts") {
			t.Errorf("%s: instance does not say on which accounts a bootstrapped host is the way:\n%s", k.typeName(), inst)
		}
	}
}

// descriptions are the descriptions of attrs and of the attributes
// nested in them.
func descriptions(attrs map[string]schema.Attribute) []string {
	var out []string
	for _, a := range attrs {
		out = append(out, a.GetMarkdownDescription())
		if n, ok := a.(schema.SingleNestedAttribute); ok {
			out = append(out, descriptions(n.Attributes)...)
		}
	}
	return out
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
