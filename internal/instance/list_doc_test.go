package instance

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestListDocNamesNoBackend: every description of the list resource's
// schema, made over adapters of made-up kinds, names no real backend: what
// a backend's generated instances leave null is its adapter's
// adapter.NoteQuery.
func TestListDocNamesNoBackend(t *testing.T) {
	reg := adapter.NewRegistry(adapter.Definition{Kind: "alpha", Block: "alpha", Capabilities: adapter.Capabilities{adapter.CapList},
		Notes: map[string]string{adapter.NoteQuery: "QUERY-NOTE"}}, adapter.Definition{Kind: "beta", Block: "beta"})
	var resp list.ListResourceSchemaResponse
	NewList(reg).ListResourceConfigSchema(context.Background(), list.ListResourceSchemaRequest{}, &resp)
	texts := []string{resp.Schema.MarkdownDescription}
	for _, a := range resp.Schema.Attributes {
		texts = append(texts, a.GetMarkdownDescription())
	}
	backend := regexp.MustCompile(`(?i)hetzner|robot|hcloud|proxmox|toy ?cloud|flavor`)
	for _, text := range texts {
		if m := backend.FindString(text); m != "" {
			t.Errorf("a description names the backend %q; say it in the adapter's notes:\n%s", m, text)
		}
	}
	if want := "On `alpha` accounts: QUERY-NOTE."; !strings.Contains(texts[0], want) {
		t.Errorf("the list resource's description lacks %q:\n%s", want, texts[0])
	}
}
