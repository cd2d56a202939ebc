package proxmox

import (
	"encoding/json"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// FuzzAgentAddresses: whatever a guest agent reports, the addresses taken
// from it are a global unicast IPv4 and IPv6 that an interface other than
// lo reported, each in its plain form (no zone), or none and the reason.
func FuzzAgentAddresses(f *testing.F) {
	for _, s := range []string{
		`{"result":[{"name":"lo","ip-addresses":[{"ip-address-type":"ipv4","ip-address":"127.0.0.1"}]},{"name":"eth0","ip-addresses":[{"ip-address-type":"ipv4","ip-address":"192.0.2.10"},{"ip-address-type":"ipv6","ip-address":"2001:db8::10"}]}]}`,
		`{"result":[{"name":"eth0","ip-addresses":[{"ip-address":"fe80::1%eth0"},{"ip-address":"2001:db8::1%eth0"},{"ip-address":"169.254.1.1"}]}]}`,
		`{"result":[{"name":"eth0","ip-addresses":[{"ip-address":"255.255.255.255"},{"ip-address":"0.0.0.0"},{"ip-address":"::ffff:192.0.2.1"},{"ip-address":"ff02::1"}]}]}`,
		`{"result":[{"name":"eth0","ip-addresses":[{"ip-address":"192.0.2.1/24"},{"ip-address":" 192.0.2.2"},{"ip-address":"01.2.3.4"}]}]}`,
		`{"result":null}`, `{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var out struct {
			Result []iface `json:"result"`
		}
		if json.Unmarshal(body, &out) != nil {
			return
		}
		var reported []string
		for _, i := range out.Result {
			if i.Name != "lo" {
				for _, x := range i.Addresses {
					reported = append(reported, x.Address)
				}
			}
		}
		ad := pickAddresses(out.Result)
		if ad.v4 == "" && ad.v6 == "" {
			if ad.why == "" {
				t.Fatalf("%s: no address and no reason", body)
			}
			return
		}
		for _, a := range []struct {
			s  string
			v4 bool
		}{{ad.v4, true}, {ad.v6, false}} {
			if a.s == "" {
				continue
			}
			ip, err := netip.ParseAddr(a.s)
			if err != nil || ip.Zone() != "" || !ip.IsGlobalUnicast() || ip.Is4() != a.v4 || ip.Is4In6() || ip.String() != a.s {
				t.Fatalf("%s: address %q taken (%v), not a plain global unicast IPv%s", body, a.s, err, map[bool]string{true: "4", false: "6"}[a.v4])
			}
			if !slices.ContainsFunc(reported, func(r string) bool { p, err := netip.ParseAddr(r); return err == nil && p.WithZone("") == ip }) {
				t.Fatalf("%s: address %q taken, which no interface but lo reported", body, a.s)
			}
		}
	})
}

// FuzzFlavors: the flavors setting is refused as InvalidConfig naming
// what is wrong without quoting the setting whole, or every flavor read
// from it has a valid name and sizes a VM can have.
func FuzzFlavors(f *testing.F) {
	for _, s := range []string{
		`{"small":{"cores":2,"memory_mib":2048,"disk_gib":20},"large":{"cores":8,"memory_mib":16384,"disk_gib":80,"template":"ubuntu-24.04"}}`,
		`{}`, `[]`, `null`, `{"a":null}`, `{"a":{"cores":1.5,"memory_mib":16,"disk_gib":1}}`, `{"a b":{"cores":1,"memory_mib":16,"disk_gib":1}}`,
		`{"a":{"cores":1,"memory_mib":16,"disk_gib":1,"gpu":1}}`, `{"a":{"cores":1e3,"memory_mib":16,"disk_gib":1}}`,
		`{"a":{"cores":1,"memory_mib":9223372036854775807,"disk_gib":1}}`, `{"a":{"cores":1,"memory_mib":16,"disk_gib":1}}{"b":1}`,
		`{"a":{"cores":1,"memory_mib":16,"disk_gib":1},"a":{"cores":0}}`, `{"a":{"cores":0,"memory_mib":16,"disk_gib":1}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		fs, err := parseFlavors(v)
		if err != nil {
			if !adapter.Is(err, adapter.InvalidConfig) {
				t.Fatalf("flavors %q refused with %v, not InvalidConfig", v, err)
			}
			if len(v) > 40 && strings.Contains(err.Error(), v) {
				t.Fatalf("flavors %q: the refusal repeats the whole setting: %v", v, err)
			}
			return
		}
		if len(fs) == 0 {
			t.Fatalf("flavors %q accepted with no flavor", v)
		}
		for name, fl := range fs {
			if !validFlavorName(name) || fl.Name != name || fl.Cores < 1 || fl.Cores > 512 || fl.MemoryMiB < 16 || fl.DiskGiB < 1 {
				t.Fatalf("flavors %q accepted flavor %q as %+v", v, name, fl)
			}
		}
	})
}
