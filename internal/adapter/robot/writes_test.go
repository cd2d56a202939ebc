package robot

import (
	"context"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

func TestGetStates(t *testing.T) {
	f := newFake()
	f.add(10, "", "AX42", "FSN1-DC14", statusReady)
	f.add(11, "", "AX42", "FSN1-DC14", statusInProcess)
	f.add(12, "", "AX42", "FSN1-DC14", statusReady)
	f.servers[12].Cancelled = true
	f.add(13, "", "AX42", "FSN1-DC14", "weird")
	f.add(14, "", "AX42", "FSN1-DC14", statusReady)
	f.servers[14].IP, f.servers[14].IPv6Net = "", ""
	a := testAccount(t, f, nil, nil)
	for id, want := range map[string]adapter.State{"10": adapter.StateRunning, "11": adapter.StatePending, "12": adapter.StateDeleting,
		"13": adapter.StateUnknown, "14": adapter.StatePending} {
		m, err := a.Get(context.Background(), id)
		if err != nil || m.State != want {
			t.Errorf("Get(%s) = %s (raw %q), %v; want %s", id, m.State, m.RawState, err, want)
		}
	}
	if m, _ := a.Get(context.Background(), "10"); m.IPv6 != "2001:db8:10::1" || m.IPv4 == "" {
		t.Errorf("addresses %q %q", m.IPv4, m.IPv6)
	}
	if _, err := a.Get(context.Background(), "99"); !adapter.IsNotFound(err) {
		t.Errorf("missing: %v", err)
	}
	if _, err := a.Get(context.Background(), "x1"); !adapter.Is(err, adapter.InvalidInput) {
		t.Errorf("malformed: %v", err)
	}
}

func TestListAndInventory(t *testing.T) {
	f := newFake()
	a := testAccount(t, f, nil, nil)
	if l, err := a.List(context.Background()); err != nil || len(l) != 0 {
		t.Fatalf("empty account: %v, %v", l, err)
	}
	f.add(20, "", "AX42", "FSN1-DC14", statusReady)
	f.add(21, "mine", "AX42", "FSN1-DC14", statusReady)
	if _, err := a.Create(context.Background(), call(a, "x"), req("x")); err != nil {
		t.Fatal(err)
	}
	inv, _ := a.Inventory(context.Background())
	list, _ := a.List(context.Background())
	if len(inv) != 2 || len(list) != 1 || list[0].ID != "20" || list[0].Key != call(a, "x").IdempotencyKey {
		t.Errorf("inventory %v, list %v", inv, list)
	}
}

func TestPowerChoosesResetTypes(t *testing.T) {
	f := newFake()
	f.add(30, "", "AX42", "FSN1-DC14", statusReady)
	f.add(31, "unmarked", "AX42", "FSN1-DC14", statusReady)
	a := testAccount(t, f, nil, nil)
	if _, err := a.Create(context.Background(), call(a, "p"), req("p")); err != nil {
		t.Fatal(err)
	}
	for _, act := range []adapter.PowerAction{adapter.PowerOn, adapter.PowerOff, adapter.PowerReboot, adapter.PowerReset} {
		if err := a.Power(context.Background(), "30", act); err != nil {
			t.Fatalf("%s: %v", act, err)
		}
	}
	if got := strings.Join(f.servers[30].resets, ","); got != "wol,power_long,sw,hw" {
		t.Errorf("sent %s", got)
	}
	if err := a.Power(context.Background(), "30", adapter.PowerShutdown); !adapter.Is(err, adapter.Unsupported) {
		t.Errorf("shutdown: %v", err)
	}
	if err := a.Power(context.Background(), "31", adapter.PowerReset); !adapter.Is(err, adapter.AccessDenied) || len(f.servers[31].resets) != 0 {
		t.Errorf("unmarked: %v", err)
	}
	// Without Wake on LAN, and with Robot unable to tell the server is off.
	_, err := chooseReset(server{Number: 1}, adapter.PowerOn, resetInfo{Types: []string{"sw", "hw", "power"}})
	if !adapter.Is(err, adapter.InvalidState) || !strings.Contains(err.Error(), "sw, hw, power") {
		t.Errorf("power on without wol: %v", err)
	}
	if k, err := chooseReset(server{}, adapter.PowerOn, resetInfo{Types: []string{"power"}, OperatingStatus: "off"}); k != "power" || err != nil {
		t.Errorf("power on when off: %q %v", k, err)
	}
	if _, err := chooseReset(server{}, adapter.PowerOff, resetInfo{Types: []string{"sw", "hw"}}); !adapter.Is(err, adapter.Unsupported) {
		t.Errorf("power off without power_long: %v", err)
	}
}

func TestUpdateRenamesKeepingTheMark(t *testing.T) {
	f := newFake()
	f.add(40, "", "AX42", "FSN1-DC14", statusReady)
	f.add(41, "legacy", "AX42", "FSN1-DC14", statusReady)
	a := testAccount(t, f, nil, nil)
	m, err := a.Create(context.Background(), call(a, "old"), req("old"))
	if err != nil {
		t.Fatal(err)
	}
	name := "new"
	got, err := a.Update(context.Background(), "40", adapter.UpdateRequest{Name: &name})
	if err != nil || got.Name != "new" || got.Claim != m.Claim || got.Fingerprint != m.Fingerprint {
		t.Fatalf("Update = %+v, %v", got, err)
	}
	if _, err := a.Update(context.Background(), "40", adapter.UpdateRequest{Labels: map[string]string{"a": "b"}}); !adapter.Is(err, adapter.InvalidInput) {
		t.Errorf("labels: %v", err)
	}
	if _, err := a.Update(context.Background(), "41", adapter.UpdateRequest{Name: &name}); !adapter.Is(err, adapter.AccessDenied) || f.name(41) != "legacy" {
		t.Errorf("unmarked rename: %v", err)
	}
	// An import writes the whole mark; release gives the name back.
	legacy := "legacy"
	got, err = a.Update(context.Background(), "41", adapter.UpdateRequest{Name: &legacy, Mark: &adapter.Mark{Claim: adapter.NewClaim(), Fingerprint: "deadbeefcafe"}})
	if err != nil || !got.Managed || got.Name != "legacy" {
		t.Fatalf("mark: %+v, %v", got, err)
	}
	if err := a.Delete(context.Background(), "41"); err != nil || f.name(41) != "legacy" {
		t.Errorf("release of an imported server: %v, name %q", err, f.name(41))
	}
}

func TestOffers(t *testing.T) {
	a := testAccount(t, newFake(), nil, nil)
	got, err := a.ListOffers(context.Background(), adapter.Query{})
	if err != nil || len(got) != 1 {
		t.Fatalf("fsn1: %v, %v", got, err)
	}
	o := got[0]
	// An 8-core Ryzen 7 PRO 8700GE runs 16 threads: vCPUs count threads.
	if o.ID != "AX42" || o.Kind != adapter.KindMetal || o.PricePerMonth != 54.74 || o.PricePerHour != 54.74/730 || o.VCPU != 16 || o.MemoryGiB != 64 || !o.Available {
		t.Errorf("standard offer %+v", o)
	}
	hel, _ := a.ListOffers(context.Background(), adapter.Query{Location: "hel1"})
	if len(hel) != 1 || hel[0].ID != "market-2383744" || hel[0].PricePerMonth != 39.9959 || hel[0].DiskGiB != 1024 {
		t.Errorf("market offer %+v", hel)
	}
	for _, q := range []adapter.Query{{MinGPUs: 1}, {GPUModel: "A100"}, {Location: "ash"}, {Kind: adapter.KindVPS}} {
		if got, err := a.ListOffers(context.Background(), q); err != nil || got == nil || len(got) != 0 {
			t.Errorf("%+v: %v %v, want []", q, got, err)
		}
	}
	if err := a.Validate(context.Background(), adapter.CreateRequest{OfferID: "AX99", Location: "fsn1"}); !adapter.Is(err, adapter.InvalidInput) || !strings.Contains(err.Error(), "AX42") {
		t.Errorf("unknown offer: %v", err)
	}
	if err := a.Validate(context.Background(), adapter.CreateRequest{OfferID: "AX42", Location: "fsn1"}); err != nil {
		t.Errorf("known offer: %v", err)
	}
}

func TestCheck(t *testing.T) {
	if err := testAccount(t, newFake(), nil, nil).Check(context.Background()); err != nil {
		t.Errorf("Check: %v", err)
	}
	other := "00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff"
	err := testAccount(t, newFake(), nil, map[string]string{"ssh_key": other}).Check(context.Background())
	if !adapter.Is(err, adapter.InvalidConfig) || adapter.FieldOf(err) != "ssh_key" || !strings.Contains(err.Error(), testKey) {
		t.Errorf("unknown key: %v", err)
	}
}
