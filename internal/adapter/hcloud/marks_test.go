package hcloud

import (
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
)

// The labels of the mark, for the tests that seed marked servers.
var (
	labelPrefix      = labelMarks.Prefix
	labelManaged     = labelMarks.Name(marks.FieldManaged)
	labelKey         = labelMarks.Name(marks.FieldKey)
	labelFingerprint = labelMarks.Name(marks.FieldFingerprint)
)

// A server marked by a released version carries these labels, spelled out
// here rather than by the code under test: it must stay ours, with its
// whole mark, or its state would be refused and a second state could
// adopt it.
func TestReleasedLabelsAreStillOurs(t *testing.T) {
	claim := "0123456789abcdef0123456789abcdef"
	m := toMachine(&hcloud.Server{ID: 7, Name: "web", Labels: map[string]string{
		"compute.seedcompute.io/managed": "true", "compute.seedcompute.io/key": "k", "compute.seedcompute.io/fingerprint": "f",
		"compute.seedcompute.io/claim": claim, "compute.seedcompute.io/unconfirmed": "true", "team": "ops",
	}})
	if !m.Managed || m.Key != "k" || m.Fingerprint != "f" || m.Claim != claim || !m.Unconfirmed || len(m.Labels) != 1 || m.Labels["team"] != "ops" {
		t.Errorf("read as %+v", m)
	}
	if labelMarks.Selector() != "compute.seedcompute.io/managed=true" {
		t.Errorf("managed servers are listed by %q", labelMarks.Selector())
	}
}
