package hcloud

import (
	"maps"
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
)

// FuzzClassify: whatever an endpoint answers, each read, listing and delete
// of a server comes back classified, NotFound only on the API's own
// not_found in an error answer, and a server read holds to the contract's
// states.
func FuzzClassify(f *testing.F) {
	// A fresh account per run (FuzzTarget): nothing one answer taught it
	// (a cached catalogue, a listing) carries over into the next.
	conformance.FuzzTarget(f, func(base string) (adapter.Adapter, error) {
		return definition(testOptions()).New(testSettings(base+"/v1"), testEnv(testToken))
	}, "1", adapter.CreateRequest{Name: "web-1", OfferID: "cx22", Image: "ubuntu-24.04", Location: "fsn1", PowerOn: true}, adaptertest.CodedNotFound("not_found"),
		`{"error":{"code":"not_found","message":"server with ID '1' not found","details":{}}}`,
		`{"error":{"code":"rate_limit_exceeded","message":"limit","details":{}}}`,
		`{"error":{"code":"invalid_input","message":"invalid","details":{"fields":[{"name":"name","messages":["x"]}]}}}`,
		`{"server":{"id":1,"name":"x","status":"running","labels":{}}}`,
		`{"server":{"id":1,"name":"x","status":"stopping","labels":{}}}`,
		`{"server":{"id":1,"name":"x","status":"running","labels":{"compute.managed":"true"},"public_net":{"ipv4":{"ip":"192.0.2.1"}}}}`,
		`{"action":{"id":1,"command":"delete_server","status":"error","error":{"code":"action_failed","message":"x"}}}`,
		`{"servers":[],"meta":{"pagination":{"page":1,"per_page":50,"next_page":2,"total_entries":9}}}`,
		`{"server_types":[{"id":1,"name":"cx22","prices":[{"location":"fsn1","price_hourly":{"gross":"x"}}]}]}`,
		`{"locations":[{"id":1,"name":"fsn1"}],"server_types":[{"id":1,"name":"cx22","cores":2,"memory":4,"disk":40,`+
			`"prices":[{"location":"fsn1","price_hourly":{"net":"NaN","gross":"NaN"},"price_monthly":{"net":"1","gross":"1"}}],`+
			`"locations":[{"id":1,"name":"fsn1","available":true}]}]}`,
		`{"locations":[{"id":1,"name":"fsn1"}],"server_types":[{"id":1,"name":"cx22","cores":-2,"memory":-4,"disk":-40,`+
			`"prices":[{"location":"fsn1","price_hourly":{"net":"-1","gross":"-Inf"},"price_monthly":{"net":"1","gross":"1"}}],`+
			`"locations":[{"id":1,"name":"fsn1","available":true}]}]}`)
}

// FuzzLabels: labels a plan accepts (the definition's rules) are stored
// beside the marks and read back as the same user labels and the same
// mark, so no user label can forge, remove or hide a mark.
func FuzzLabels(f *testing.F) {
	for _, s := range [][4]string{
		{"role", "web", "example.com/team", "ops"}, {"a", "", "b.c_d-e", "1"},
		{labelPrefix + "managed", "false", "x", "y"}, {"hetzner.cloud/x", "1", "x", "y"},
		{"Compute.seedcompute.io/key", "k", "x", "y"}, {"compute.seedcompute.io", "v", "x", "y"},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	mark := adapter.Mark{Key: "0123456789abcdef0123456789abcdef", Fingerprint: "fedcba9876543210fedcba9876543210",
		Claim: "00112233445566778899aabbccddeeff", Unconfirmed: true}
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		user := map[string]string{k1: v1, k2: v2}
		for k, v := range user {
			if !rules.LabelKey.Check(k) || !rules.LabelValue.Check(v) {
				return // refused at plan time
			}
		}
		if err := labelMarks.CheckUser(user); err != nil {
			t.Fatalf("labels %v pass the rules but are refused at create: %v", user, err)
		}
		m := toMachine(&hcloud.Server{ID: 1, Labels: labelMarks.Put(user, mark)})
		if !maps.Equal(m.Labels, user) || !m.Managed || m.Key != mark.Key || m.Fingerprint != mark.Fingerprint ||
			m.Claim != mark.Claim || m.Unconfirmed != mark.Unconfirmed {
			t.Fatalf("labels %v with the mark read back as %v and %+v", user, m.Labels, m)
		}
		if !maps.Equal(labelMarks.Stored(m), labelMarks.Put(user, mark)) {
			t.Fatalf("labels %v: what an update would write, %v, is not what the create wrote, %v", user, labelMarks.Stored(m), labelMarks.Put(user, mark))
		}
	})
}
