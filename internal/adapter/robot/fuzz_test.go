package robot

import (
	"encoding/json"
	"math"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
)

// FuzzClassify: whatever an endpoint answers, each read, listing and delete
// of a server comes back classified, NotFound only on the webservice's own
// SERVER_NOT_FOUND in an error answer, and a server read holds to the
// contract's states.
func FuzzClassify(f *testing.F) {
	conformance.AnswerSeeds(f,
		`{"error":{"status":404,"code":"SERVER_NOT_FOUND","message":"Server not found"}}`,
		`{"error":{"status":404,"code":"NOT_FOUND","message":"Not found"}}`,
		`{"error":{"status":404,"code":"IP_NOT_FOUND","message":"IP not found"}}`,
		`{"error":{"status":403,"code":"RATE_LIMIT_EXCEEDED","message":"Rate limit exceeded","max_request":200,"interval":3600}}`,
		`{"error":{"status":400,"code":"INVALID_INPUT","message":"Invalid input parameters","missing":null,"invalid":["server_name"]}}`,
		`{"server":{"server_ip":"192.0.2.10","server_ipv6_net":"2001:db8::","server_number":321,"server_name":"compute:x","product":"AX41","dc":"FSN1-DC14","status":"ready","cancelled":false}}`,
		`[{"server":{"server_ip":null,"server_number":321,"server_name":"","status":"in process"}}]`,
		`[{"product":{"id":"AX41","name":"AX41","location":["FSN1"],"prices":[{"location":"FSN1","price":{"net":"x","gross":"1"}}]}}]`)
	answer := &conformance.Answer{}
	srv := httptest.NewServer(answer)
	f.Cleanup(srv.Close)
	d := definition(options{poll: adapter.Backoff{Initial: time.Millisecond, Max: time.Millisecond}, requestTimeout: 10 * time.Second})
	settings, err := d.Normalize(map[string]string{"user": "provider://robot_user", "password": "provider://robot_password", "endpoint": srv.URL, "ssh_key": testKey}, nil)
	if err != nil {
		f.Fatal(err)
	}
	// A fresh account per run: nothing one answer taught it (a cached
	// catalog, a listing) carries over into the next.
	newAdapter := func() adapter.Adapter {
		a, err := d.New(settings, adapter.Env{
			Secrets: adapter.SecretResolver{Provider: map[string]string{"robot_user": testUser, "robot_password": testPassword}},
			Clock:   adaptertest.InstantClock{},
		})
		if err != nil {
			f.Fatal(err)
		}
		return a
	}
	f.Fuzz(func(t *testing.T, call uint8, status int, body []byte) {
		conformance.FuzzAnswer(t, answer, newAdapter, "321",
			adapter.CreateRequest{Name: "web-1", OfferID: "AX41", Location: "fsn1"}, call, status, body, notFoundProof)
	})
}

// notFoundProof is the webservice's proof that a server is absent: an
// error answer whose code is SERVER_NOT_FOUND.
func notFoundProof(status int, body []byte) bool {
	var env struct {
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	return status >= 400 && status < 500 && json.Unmarshal(body, &env) == nil && env.Error != nil && env.Error.Code == "SERVER_NOT_FOUND"
}

// FuzzParseServerName: any server name Robot reports reads without a
// panic; a name read as marked is written back exactly as it was read, and
// one read as unmarked is the user's whole name.
func FuzzParseServerName(f *testing.F) {
	const claim = "0123456789abcdef0123456789abcdef"
	for _, s := range []string{
		"", "web-1", "web-1" + markSep + claim + "~abcdef01~n", "web-1" + markSep + claim + "~abcdef01~E",
		markSep + "~abcdef01~e", "a" + markSep + "b" + markSep + claim + "~abcdef01~N", "web-1" + markSep + claim + "~abcdef0~n",
		"web-1" + markSep + claim + "~ABCDEF01~n", "web-1" + markSep + claim + "~abcdef01~x", "web-1~cm~", "\xff~cm~~00000000~e",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := parseName(s)
		if !c.Managed {
			if c != (claimed{Name: s}) {
				t.Fatalf("parseName(%q) = %#v: unmarked, but not the whole name alone", s, c)
			}
			return
		}
		if c.String() != s {
			t.Fatalf("parseName(%q) = %#v, written back as %q", s, c, c.String())
		}
		if !adapter.IsClaim(c.Claim) && c.Claim != "" || len(c.Fingerprint) != fpLen {
			t.Fatalf("parseName(%q) = %#v: claim or fingerprint malformed", s, c)
		}
	})
}

// FuzzClaimName: every name a plan accepts, with any claim and request
// fingerprint, fits a Robot server name once marked and reads back as
// exactly what was written; released, it is the name it was given.
func FuzzClaimName(f *testing.F) {
	for _, s := range []struct {
		name, claim, fp    string
		named, unconfirmed bool
	}{
		{"web-1", "0123456789abcdef0123456789abcdef", "abcdef0123456789", true, false},
		{"x", "", "0011223344556677", false, true},
		{"a~c", "ffffffffffffffffffffffffffffffff", "deadbeef", true, true},
		{"name with spaces ~cm", "0123456789abcdef0123456789abcdef", "abcdef01", false, false},
		{strings.Repeat("n", maxUserName), "0123456789abcdef0123456789abcdef", "0123456789abcdef", true, false},
	} {
		f.Add(s.name, s.claim, s.fp, s.named, s.unconfirmed)
	}
	f.Fuzz(func(t *testing.T, name, claim, fp string, named, unconfirmed bool) {
		if !validName(name) || claim != "" && !adapter.IsClaim(claim) || len(fp) < fpLen || !isLowerHex(fp) {
			return // refused before anything is written
		}
		c := claimed{Name: name, Claim: claim, Fingerprint: fp, WasNamed: named, Unconfirmed: unconfirmed, Managed: true}
		written := c.String()
		if len(written) > maxServerName {
			t.Fatalf("%#v is written as %d characters, more than a server name holds (%d)", c, len(written), maxServerName)
		}
		got := parseName(written)
		want := c
		want.Fingerprint = fp[:fpLen]
		if got != want {
			t.Fatalf("%#v written as %q reads back as %#v", c, written, got)
		}
		if named && got.released() != name || !named && got.released() != "" {
			t.Fatalf("%q released is %q", written, got.released())
		}
	})
}

func isLowerHex(s string) bool {
	return strings.Trim(s, "0123456789abcdef") == ""
}

// FuzzOffers: whatever the product listings answer, each offer made of
// them holds numbers a Terraform number can hold, no price or size below
// zero, and an id that names its listing.
func FuzzOffers(f *testing.F) {
	for _, s := range []string{
		`[{"product":{"id":"AX41","name":"AX41","description":["AMD Ryzen 5 3600 6-Core","64 GB DDR4 RAM"],"location":["FSN1"],"prices":[{"location":"FSN1","price":{"net":"39.0000","gross":"46.4100"},"price_setup":{"net":"0.0000","gross":"0.0000"}}]}}]`,
		`[{"product":{"id":"AX41","prices":[{"location":"FSN1","price":{"net":"NaN","gross":"NaN"},"price_setup":{"net":"-Inf","gross":"Inf"}}]}}]`,
		`[{"product":{"id":"AX41","prices":[{"location":"FSN1","price":{"net":-1,"gross":"-5"},"price_setup":{"gross":null}}]}}]`,
		`[{"product":{"id":1234567,"name":"SB","cpu":"Intel Core i7-6700","memory_size":64,"hdd_size":-2048,"hdd_count":-2,"datacenter":"FSN1-DC1","price":"29.41","price_vat":"infinity","price_setup":"0"}}]`,
		`[{"product":{"id":1,"memory_size":-1,"hdd_size":9223372036854775807,"hdd_count":2}}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var offers []adapter.Offer
		var std []struct {
			Product product `json:"product"`
		}
		if json.Unmarshal(body, &std) == nil {
			for _, p := range std {
				offers = append(offers, standardOffers(p.Product)...)
			}
		}
		var market []struct {
			Product marketProduct `json:"product"`
		}
		if json.Unmarshal(body, &market) == nil {
			for _, p := range market {
				o := marketOffer(p.Product)
				if !strings.HasPrefix(o.ID, marketPrefix) {
					t.Fatalf("%s: market offer id %q", body, o.ID)
				}
				offers = append(offers, o)
			}
		}
		for _, o := range offers {
			for name, v := range map[string]float64{"price_per_hour": o.PricePerHour, "price_per_month": o.PricePerMonth, "setup_fee": o.SetupFee,
				"memory_gib": o.MemoryGiB, "vcpu": float64(o.VCPU), "disk_gib": float64(o.DiskGiB)} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("%s: offer %s has %s %v", body, o.ID, name, v)
				}
			}
		}
	})
}
