package proxmox

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The values the adapter writes into PVE's property strings (ide2,
// cicustom), its description and tags, and the VMIDs it derives: whatever
// an account's settings or a template's configuration hold, a value either
// is refused or reaches PVE as exactly the one property it was meant to be.

var fuzzMark = adapter.Mark{Key: "0123456789abcdef0123456789abcdef", Fingerprint: "fedcba9876543210fedcba9876543210",
	Claim: "00112233445566778899aabbccddeeff", Unconfirmed: true}

// readProperty splits a property string as PVE does: comma-separated
// key=value pairs, of which the first may be the default key's value
// alone. It has no quoting, so a comma or an equals sign in a value is a
// property of its own.
func readProperty(s string) (def string, props map[string]string) {
	props = map[string]string{}
	for i, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(part, "=")
		if !ok && i == 0 {
			def = part
			continue
		}
		props[k] = v
	}
	return def, props
}

// fuzzAccount opens an account with extra settings, or returns the error
// Normalize or New refused them with.
func fuzzAccount(extra map[string]string) (*account, error) {
	settings := map[string]string{
		"endpoint": "https://127.0.0.1:8006", "api_token": "provider://pve_token", "insecure_skip_tls_verify": "true",
		"flavors": `{"small":{"cores":2,"memory_mib":2048,"disk_gib":20}}`,
	}
	for k, v := range extra {
		settings[k] = v
	}
	d := definition(testOptions())
	norm, err := d.Normalize(settings, nil)
	if err != nil {
		return nil, err
	}
	return newAccount(norm, adapter.Env{}, testOptions())
}

// FuzzStorageSettings: a storage setting is refused at plan time, or the
// cloud-init drive and the snippet reference it is written into read back
// as one volume on that storage and nothing else.
func FuzzStorageSettings(f *testing.F) {
	for _, s := range [][2]string{
		{"local-lvm", "local"}, {"", ""}, {"ceph.pool_1", "nfs-snippets"}, {"local,media=cdrom", "local"},
		{"local", "local,network=local:snippets/x.yaml"}, {"a:b", "c=d"}, {"x", "-local"}, {"local lvm", "local\n"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, storage, snippets string) {
		a, err := fuzzAccount(map[string]string{"storage": storage, "snippet_storage": snippets})
		if err != nil {
			if !adapter.Is(err, adapter.InvalidConfig) {
				t.Fatalf("storage %q, snippet_storage %q refused with %v, not InvalidConfig", storage, snippets, err)
			}
			return
		}
		cfg := vmConfig{"scsi0": "local-lvm:base-9000-disk-0,size=10G"}
		form, err := a.configForm(cfg, 100123, fuzzMark, flavor{Cores: 2, MemoryMiB: 2048, DiskGiB: 20}, adapter.CreateRequest{}, true)
		if err != nil {
			t.Fatalf("storage %q: %v", storage, err)
		}
		want := storage
		if want == "" {
			want = "local-lvm"
		}
		if def, props := readProperty(form.Get("ide2")); def != want+":cloudinit" || len(props) != 0 {
			t.Fatalf("storage %q: ide2=%q reads as %q and %v", storage, form.Get("ide2"), def, props)
		}
		if snippets == "" {
			return
		}
		ref := a.snippets.cicustom(100123)
		if def, props := readProperty(ref); def != "" || len(props) != 1 || props["user"] != snippets+":snippets/compute-100123-user.yaml" {
			t.Fatalf("snippet_storage %q: cicustom=%q reads as %q and %v", snippets, ref, def, props)
		}
	})
}

// FuzzTemplateConfig: whatever configuration a template's clone has, the
// config write made of it is refused as InvalidInput or carries a
// cloud-init drive on a storage and nothing else, the mark that reads
// back as written with the user's description kept, and the managed tag
// and claim once each.
func FuzzTemplateConfig(f *testing.F) {
	for _, s := range []string{
		`{"scsi0":"local-lvm:base-9000-disk-0,size=10G","boot":"order=scsi0;ide2;net0","tags":"web;prod","description":"notes"}`,
		`{"virtio0":"local:9000/base-9000-disk-0.qcow2,size=2252M","ide2":"local-lvm:cloudinit,media=cdrom","agent":"enabled=1,fstrim_cloned_disks=1"}`,
		`{"scsi0":"none,media=cdrom","boot":"order=scsi0"}`,
		`{"sata0":"x,y=z:vm-1","tags":"compute;cm-c-00112233445566778899aabbccddeeff;cm-new"}`,
		`{"scsi0":"local-lvm:vm-1,size=G","description":"a\r\ncompute-managed: v1\ncompute-key: x\n\n"}`,
		`{"ide0":"local-lvm:vm-1,size=1e400T","agent":1,"description":"compute-unconfirmed: true\r"}`,
		`{"boot":"order=","scsi0":""}`, `{}`, `{"scsi0":null}`,
	} {
		f.Add([]byte(s))
	}
	a, err := fuzzAccount(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var cfg vmConfig
		if json.Unmarshal(body, &cfg) != nil {
			return
		}
		_ = cfg.diskGiB(cfg.bootDisk())
		form, err := a.configForm(cfg, 100123, fuzzMark, flavor{Cores: 2, MemoryMiB: 2048, DiskGiB: 20}, adapter.CreateRequest{}, true)
		if err != nil {
			if !adapter.Is(err, adapter.InvalidInput) {
				t.Fatalf("config %s refused with %v, not InvalidInput", body, err)
			}
			return
		}
		if ide2 := form.Get("ide2"); ide2 != "" {
			def, props := readProperty(ide2)
			storage, ok := strings.CutSuffix(def, ":cloudinit")
			if !ok || !storageID.MatchString(storage) || len(props) != 0 {
				t.Fatalf("config %s: ide2=%q reads as %q and %v", body, ide2, def, props)
			}
		} else if !cfg.hasCloudInit() {
			t.Fatalf("config %s: no cloud-init drive, and none added", body)
		}
		_, _, user := cfg.mark()
		managed, mark, userAgain := descMark.Read(form.Get("description"))
		if mark != fuzzMark || !managed || strings.TrimSpace(userAgain) != strings.TrimSpace(user) {
			t.Fatalf("config %s: description %q reads back as %+v (managed %t) and %q, want %+v and %q",
				body, form.Get("description"), mark, managed, userAgain, fuzzMark, user)
		}
		tags := tagSet(form.Get("tags"))
		if n := strings.Count(";"+strings.Join(tags, ";")+";", ";"+tagManaged+";"); n != 1 || claimTag(tags) != fuzzMark.Claim {
			t.Fatalf("config %s: tags %q hold %q %d times and claim %q", body, form.Get("tags"), tagManaged, n, claimTag(tags))
		}
	})
}

// FuzzVMIDSlots: any VMID range a plan accepts is refused or gives every
// key a home slot inside it, and the walk from there stays inside and
// visits as many different slots as it takes steps, up to the range's size.
func FuzzVMIDSlots(f *testing.F) {
	for _, s := range [][3]string{
		{"100000", "199999", "web-1"}, {"100", "100", ""}, {"999999999", "999999999", "x"}, {"200", "199", "k"},
		{"100", "999999999", "\xff"}, {"0100", "200", "k"}, {"100", "163", "k"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, lo, hi, key string) {
		a, err := fuzzAccount(map[string]string{"vmid_min": lo, "vmid_max": hi})
		if err != nil {
			if !adapter.Is(err, adapter.InvalidConfig) {
				t.Fatalf("vmid_min %q, vmid_max %q refused with %v, not InvalidConfig", lo, hi, err)
			}
			return
		}
		v := a.home(key)
		seen := map[uint64]bool{}
		for range maxProbes {
			if v < a.vmidMin || v > a.vmidMax || v < 100 || v > 999999999 {
				t.Fatalf("range %d–%d: key %q reaches slot %d", a.vmidMin, a.vmidMax, key, v)
			}
			seen[v] = true
			v = a.next(v)
		}
		if want := min(uint64(maxProbes), a.vmidMax-a.vmidMin+1); uint64(len(seen)) != want {
			t.Fatalf("range %d–%d: key %q's walk visits %d slots, want %d", a.vmidMin, a.vmidMax, key, len(seen), want)
		}
	})
}
