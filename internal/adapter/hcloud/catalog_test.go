package hcloud

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

func offerIDs(offers []adapter.Offer) []string {
	ids := make([]string, len(offers))
	for i, o := range offers {
		ids[i] = o.ID
	}
	return ids
}

func findOffer(offers []adapter.Offer, id string) (adapter.Offer, bool) {
	i := slices.IndexFunc(offers, func(o adapter.Offer) bool { return o.ID == id })
	if i < 0 {
		return adapter.Offer{}, false
	}
	return offers[i], true
}

func TestListOffers(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	e.SetMaxPageSize(3) // every catalog listing spans pages
	a := newTestAccount(t, endpoint)

	offers, err := a.ListOffers(ctxT(t), adapter.Query{})
	if err != nil {
		t.Fatal(err)
	}
	ids := offerIDs(offers)
	// fsn1 sells every EU type; cx11 is deprecated and left out.
	for _, want := range []string{"cpx11", "cpx21", "cpx31", "cax11", "cax21", "ccx13", "cx22", "cx32", "cx42", "cx52"} {
		if !slices.Contains(ids, want) {
			t.Errorf("offers in fsn1 lack %s: %v", want, ids)
		}
	}
	if slices.Contains(ids, "cx11") {
		t.Error("the deprecated cx11 is offered")
	}
	cx22, _ := findOffer(offers, "cx22")
	if cx22.Kind != adapter.KindVPS || cx22.Location != "fsn1" || cx22.VCPU != 2 || cx22.MemoryGiB != 4 || cx22.DiskGiB != 40 ||
		cx22.Currency != "EUR" || math.Abs(cx22.PricePerHour-0.00714) > 1e-9 || !cx22.Available || cx22.Description == "" {
		t.Errorf("cx22 = %+v, want 2 vCPU, 4 GiB, 40 GiB, 0.00714 EUR gross, available", cx22)
	}
	if cx32, _ := findOffer(offers, "cx32"); cx32.Available {
		t.Error("cx32 is sold out in fsn1 but offered as available")
	}
	for i := 1; i < len(offers); i++ {
		p, o := offers[i-1], offers[i]
		if o.PricePerHour < p.PricePerHour || o.PricePerHour == p.PricePerHour && o.ID < p.ID {
			t.Errorf("not sorted by price then id: %s (%g) before %s (%g)", p.ID, p.PricePerHour, o.ID, o.PricePerHour)
		}
	}
	if got := e.Stats()["GET /server_types"]; got != 4 {
		t.Errorf("GET /server_types called %d times, want 4 pages of 3", got)
	}

	// The catalog is loaded once per account.
	before := e.Stats()
	ash, err := a.ListOffers(ctxT(t), adapter.Query{Location: "ash", MinVCPU: 3})
	if err != nil {
		t.Fatal(err)
	}
	if after := e.Stats(); !maps.Equal(before, after) {
		t.Errorf("a second ListOffers called the API: %v -> %v", before, after)
	}
	if got := offerIDs(ash); !slices.Equal(got, []string{"cpx21", "cpx31"}) {
		t.Errorf("offers in ash with 3+ vCPU = %v, want [cpx21 cpx31]", got)
	}
	if cpx21, _ := findOffer(ash, "cpx21"); math.Abs(cpx21.PricePerHour-0.0121*1.15*1.19) > 1e-9 || cpx21.Location != "ash" {
		t.Errorf("cpx21 in ash = %+v, want the ash price", cpx21)
	}

	cheap, err := a.ListOffers(ctxT(t), adapter.Query{MaxPricePerHour: 0.0075, MinMemoryGiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	// Equal prices sort by id.
	if got := offerIDs(cheap); !slices.Equal(got, []string{"cax11", "cx22"}) {
		t.Errorf("offers up to 0.0075/h with 4 GiB = %v, want [cax11 cx22]", got)
	}

	for name, q := range map[string]adapter.Query{
		"metal":      {Kind: adapter.KindMetal},
		"gpu":        {MinGPUs: 1},
		"gpu model":  {GPUModel: "A100"},
		"impossible": {MinVCPU: 1_000_000},
	} {
		got, err := a.ListOffers(ctxT(t), q)
		if err != nil || got == nil || len(got) != 0 {
			t.Errorf("%s: %v, %v; want [] and no error", name, got, err)
		}
	}

	_, err = a.ListOffers(ctxT(t), adapter.Query{Location: "mars1"})
	if !adapter.Is(err, adapter.InvalidInput) || adapter.FieldOf(err) != "location" || !strings.Contains(err.Error(), "available: ash, fsn1, hel1, hil, nbg1, sin") {
		t.Errorf("unknown location: %v, want InvalidInput on location listing the locations", err)
	}
}

func TestValidate(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	ok := func(mod func(*adapter.CreateRequest)) adapter.CreateRequest {
		r := testRequest("web-1")
		mod(&r)
		return r
	}
	if err := a.Validate(ctxT(t), testRequest("web-1")); err != nil {
		t.Fatalf("a valid request: %v", err)
	}
	if err := a.Validate(ctxT(t), ok(func(r *adapter.CreateRequest) { r.OfferID = "cax11"; r.Location = "nbg1" })); err != nil {
		t.Errorf("ubuntu-24.04 on arm in nbg1: %v", err)
	}
	tests := []struct {
		name     string
		req      adapter.CreateRequest
		field    string
		contains []string
	}{
		{"unknown offer", ok(func(r *adapter.CreateRequest) { r.OfferID = "cx99" }), "offer_id",
			[]string{`offer "cx99" does not exist in fsn1; available: `, "cx22, cx42"}},
		{"sold out", ok(func(r *adapter.CreateRequest) { r.OfferID = "cx32" }), "offer_id",
			[]string{`offer "cx32" exists in fsn1 but is unavailable there`, "another offer or location"}},
		{"deprecated offer", ok(func(r *adapter.CreateRequest) { r.OfferID = "cx11" }), "offer_id",
			[]string{`offer "cx11" is deprecated in fsn1`}},
		{"not sold here", ok(func(r *adapter.CreateRequest) { r.OfferID = "cax11"; r.Location = "ash" }), "offer_id",
			[]string{`offer "cax11" is not sold in ash (it is sold in: fsn1, hel1, nbg1)`, "cpx11"}},
		{"unknown location", ok(func(r *adapter.CreateRequest) { r.Location = "mars1" }), "location",
			[]string{`location "mars1" does not exist; available: ash, fsn1, hel1, hil, nbg1, sin`}},
		{"unknown image", ok(func(r *adapter.CreateRequest) { r.Image = "ubuntu-99.04" }), "image",
			[]string{`image "ubuntu-99.04" does not exist for architecture x86`, "debian-12", "ubuntu-24.04"}},
		{"deprecated image", ok(func(r *adapter.CreateRequest) { r.Image = "ubuntu-20.04" }), "image",
			[]string{`image "ubuntu-20.04" does not exist for architecture x86 (offer "cx22"), or is deprecated`}},
		{"image for the other architecture", ok(func(r *adapter.CreateRequest) { r.OfferID = "cax11"; r.Image = "161547269" }), "image",
			[]string{`image "161547269" is built for x86, but offer "cax11" runs on arm`}},
		{"reserved label", ok(func(r *adapter.CreateRequest) { r.Labels = map[string]string{labelKey: "x"} }), "labels",
			[]string{"reserved"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := a.Validate(ctxT(t), tt.req)
			checkClassified(t, err, adapter.InvalidInput, tt.field, tt.contains)
		})
	}
	if got := e.Stats()["GET /images"]; got < 1 || got > 2 {
		t.Errorf("images listed %d times; want once per account (plus pages)", got)
	}
	if got := e.Stats()["POST /servers"]; got != 0 {
		t.Errorf("Validate created something: %d POSTs", got)
	}
}

// TestLocationsReadOnce: the health check at plan and at apply, the
// validation of a create and the proof that a not_found comes from the API
// share one listing of the locations per account; a check that failed is
// not kept, and its retry asks again.
func TestLocationsReadOnce(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	e.FailNext("GET", "/locations", 1, 503, "unavailable")
	a := newTestAccount(t, endpoint)
	if err := a.Check(ctxT(t)); !adapter.Is(err, adapter.Transient) {
		t.Fatalf("Check against a failing API = %v, want Transient", err)
	}
	e.ResetStats()
	for range 2 {
		if err := a.Check(ctxT(t)); err != nil {
			t.Fatal(err)
		}
	}
	req := adapter.CreateRequest{Name: "web", OfferID: "cx22", Image: "ubuntu-24.04"}
	if err := a.Validate(ctxT(t), req); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Get(ctxT(t), "4299999"); !adapter.IsNotFound(err) {
		t.Fatalf("a missing server: %v, want NotFound", err)
	}
	if got := e.Stats()["GET /locations"]; got != 1 {
		t.Errorf("two checks, a validation and a proof of absence listed the locations %d times, want once: %v", got, e.Stats())
	}
}

func TestCheck(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	if err := a.Check(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if got := e.Stats(); len(got) != 1 || got["GET /locations"] != 1 {
		t.Errorf("Check made %v; want one GET /locations and no write probe", got)
	}

	s := testSettings(endpoint)
	s["location"] = "mars1"
	err := newTestAccountWith(t, s, testEnv(testToken)).Check(ctxT(t))
	checkClassified(t, err, adapter.InvalidConfig, "location", []string{`location "mars1" does not exist; available: ash, fsn1`})

	err = newTestAccountWith(t, testSettings(endpoint), testEnv("not-the-token")).Check(ctxT(t))
	checkClassified(t, err, adapter.AccessDenied, "token", []string{"token reference"})
}

// An API that reports no availability per server type falls back to the
// datacenters' lists, which the API has deprecated but still serves.
func TestPlacementFallsBackToDatacenters(t *testing.T) {
	typ := &hcloud.ServerType{ID: 7, Name: "cx22", Pricings: []hcloud.ServerTypeLocationPricing{
		{Location: &hcloud.Location{Name: "fsn1"}, Hourly: hcloud.Price{Gross: "0.0071"}},
		{Location: &hcloud.Location{Name: "nbg1"}, Hourly: hcloud.Price{Gross: "0.0071"}},
	}}
	c := &catalog{types: []*hcloud.ServerType{typ}, availableIn: map[string]map[int64]bool{"fsn1": {7: true}}}
	if p := c.placement(typ, "fsn1"); !p.supported || !p.available || p.deprecated {
		t.Errorf("fsn1: %+v, want supported and available", p)
	}
	if p := c.placement(typ, "nbg1"); !p.supported || p.available {
		t.Errorf("nbg1: %+v, want supported, not available", p)
	}
	if p := c.placement(typ, "hel1"); p.supported {
		t.Errorf("hel1: %+v, want not supported (no price there)", p)
	}
}
