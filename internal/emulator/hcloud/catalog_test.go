package hcloud_test

import (
	"slices"
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

func TestCatalogThroughHcloudGo(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})

	types, err := c.ServerType.All(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	var typeNames []string
	for _, st := range types {
		typeNames = append(typeNames, st.Name)
	}
	for _, want := range []string{"cx22", "cx32", "cx42", "cx52", "cpx11", "cpx21", "cpx31", "cax11", "cax21", "ccx13", "cx11"} {
		if !slices.Contains(typeNames, want) {
			t.Errorf("server type %s missing from %v", want, typeNames)
		}
	}
	cx11, _, err := c.ServerType.GetByName(ctx(t), "cx11")
	if err != nil || cx11 == nil || !cx11.IsDeprecated() || cx11.UnavailableAfter().IsZero() {
		t.Errorf("cx11 deprecation: %+v %v", cx11, err)
	}
	cx22, _, err := c.ServerType.GetByID(ctx(t), 104)
	if err != nil || cx22 == nil || cx22.Name != "cx22" || cx22.Cores != 2 || cx22.Memory != 4 || cx22.Disk != 40 ||
		cx22.CPUType != hcloud.CPUTypeShared || cx22.Architecture != hcloud.ArchitectureX86 {
		t.Fatalf("cx22: %+v %v", cx22, err)
	}
	if len(cx22.Pricings) != 3 || cx22.Pricings[0].Hourly.Net != "0.0060000000" || cx22.Pricings[0].Monthly.Gross != "4.5101000000000000" {
		t.Errorf("cx22 prices %+v", cx22.Pricings)
	}
	if got, _, err := c.ServerType.GetByID(ctx(t), 99999); got != nil || err != nil {
		t.Errorf("unknown type: %v %v", got, err)
	}

	locs, err := c.Location.All(ctx(t))
	if err != nil || len(locs) != 6 {
		t.Fatalf("locations: %d %v", len(locs), err)
	}
	fsn1, _, err := c.Location.GetByName(ctx(t), "fsn1")
	if err != nil || fsn1.City != "Falkenstein" || fsn1.NetworkZone != hcloud.NetworkZoneEUCentral {
		t.Errorf("fsn1: %+v %v", fsn1, err)
	}

	dcs, err := c.Datacenter.All(ctx(t))
	if err != nil || len(dcs) != 6 {
		t.Fatalf("datacenters: %d %v", len(dcs), err)
	}
	dc, _, err := c.Datacenter.GetByName(ctx(t), "fsn1-dc14")
	if err != nil || dc == nil || dc.Location.Name != "fsn1" {
		t.Fatalf("fsn1-dc14: %+v %v", dc, err)
	}
	supported, available := typeIDs(dc.ServerTypes.Supported), typeIDs(dc.ServerTypes.Available)
	if !slices.Contains(supported, 105) || slices.Contains(available, 105) {
		t.Errorf("cx32 must be supported but sold out in fsn1: supported %v available %v", supported, available)
	}
	ash, _, _ := c.Datacenter.GetByName(ctx(t), "ash-dc1")
	if slices.Contains(typeIDs(ash.ServerTypes.Supported), 104) {
		t.Error("cx22 offered in ash")
	}

	images, err := c.Image.AllWithOpts(ctx(t), hcloud.ImageListOpts{Type: []hcloud.ImageType{hcloud.ImageTypeSystem}, Architecture: []hcloud.Architecture{hcloud.ArchitectureARM}})
	if err != nil || len(images) != 5 {
		t.Errorf("arm system images: %d %v", len(images), err)
	}
	withDeprecated, err := c.Image.AllWithOpts(ctx(t), hcloud.ImageListOpts{IncludeDeprecated: true})
	if err != nil || len(withDeprecated) != 12 {
		t.Errorf("images incl. deprecated: %d %v", len(withDeprecated), err)
	}
	img, _, err := c.Image.GetForArchitecture(ctx(t), "ubuntu-24.04", hcloud.ArchitectureARM)
	if err != nil || img == nil || img.Architecture != hcloud.ArchitectureARM || img.OSFlavor != "ubuntu" {
		t.Errorf("ubuntu-24.04 arm: %+v %v", img, err)
	}
	old, _, err := c.Image.GetForArchitecture(ctx(t), "ubuntu-20.04", hcloud.ArchitectureX86)
	if err != nil || old == nil || !old.IsDeprecated() {
		t.Errorf("ubuntu-20.04: %+v %v", old, err)
	}
	byID, _, err := c.Image.GetByID(ctx(t), img.ID)
	if err != nil || byID == nil || byID.Name != "ubuntu-24.04" {
		t.Errorf("image by id: %+v %v", byID, err)
	}

	// Catalog lists page like the others.
	e.SetMaxPageSize(4)
	e.ResetStats()
	if types, err := c.ServerType.All(ctx(t)); err != nil || len(types) != 11 {
		t.Errorf("paged types: %d %v", len(types), err)
	}
	if n := e.Stats()["GET /server_types"]; n != 3 {
		t.Errorf("%d requests for 11 types in pages of 4", n)
	}
}

func typeIDs(types []*hcloud.ServerType) []int64 {
	out := make([]int64, len(types))
	for i, st := range types {
		out[i] = st.ID
	}
	return out
}

func TestSSHKeys(t *testing.T) {
	_, c, _ := start(t, emulator.Options{})
	keys, err := c.SSHKey.All(ctx(t))
	if err != nil || len(keys) != 0 {
		t.Fatalf("empty list: %v %v", keys, err)
	}
	const pub = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGJ3mDIsdtWOFgRdA2wK0wsXxJCEMAdD3mEmxoMrhWc0 test@example"
	key, _, err := c.SSHKey.Create(ctx(t), hcloud.SSHKeyCreateOpts{Name: "deploy", PublicKey: pub})
	if err != nil {
		t.Fatal(err)
	}
	if len(key.Fingerprint) != 47 {
		t.Errorf("fingerprint %q", key.Fingerprint)
	}
	if _, _, err := c.SSHKey.Create(ctx(t), hcloud.SSHKeyCreateOpts{Name: "again", PublicKey: pub}); !hcloud.IsError(err, hcloud.ErrorCodeUniquenessError) {
		t.Errorf("same key twice: %v", err)
	}
	if _, _, err := c.SSHKey.Create(ctx(t), hcloud.SSHKeyCreateOpts{Name: "bad", PublicKey: "ssh-rsa nope"}); !hcloud.IsError(err, hcloud.ErrorCodeInvalidInput) {
		t.Errorf("bad key: %v", err)
	}
	res, _, err := c.Server.Create(ctx(t), hcloud.ServerCreateOpts{
		Name: "keyed", ServerType: &hcloud.ServerType{Name: "cx22"}, Image: &hcloud.Image{Name: "ubuntu-24.04"},
		SSHKeys: []*hcloud.SSHKey{key},
	})
	if err != nil || res.RootPassword != "" {
		t.Errorf("create with key: root password %q, %v", res.RootPassword, err)
	}
	if _, _, err := c.Server.Create(ctx(t), hcloud.ServerCreateOpts{
		Name: "keyless", ServerType: &hcloud.ServerType{Name: "cx22"}, Image: &hcloud.Image{Name: "ubuntu-24.04"},
		SSHKeys: []*hcloud.SSHKey{{ID: 1}},
	}); !hcloud.IsError(err, hcloud.ErrorCodeInvalidInput) {
		t.Errorf("unknown key: %v", err)
	}
	got, _, err := c.SSHKey.GetByName(ctx(t), "deploy")
	if err != nil || got == nil || got.ID != key.ID {
		t.Errorf("by name: %v %v", got, err)
	}
	if _, err := c.SSHKey.Delete(ctx(t), key); err != nil {
		t.Fatal(err)
	}
	if got, _, err := c.SSHKey.GetByID(ctx(t), key.ID); got != nil || err != nil {
		t.Errorf("after delete: %v %v", got, err)
	}
}
