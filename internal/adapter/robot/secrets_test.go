package robot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
)

// TestSecretsNeverLeave runs every call, failing and succeeding, and
// checks that neither the user nor the password is in any error or log
// line. It first proves that the lines are there to be searched, so it
// cannot pass on an empty log.
func TestSecretsNeverLeave(t *testing.T) {
	f := newFake()
	f.add(50, "", "AX42", "FSN1-DC14", statusReady)
	log := &adaptertest.Log{}
	a := testAccount(t, f, log, map[string]string{"allow_order": "true", "cancel_on_destroy": "true"})
	ctx := context.Background()
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	_, err := a.Create(ctx, call(a, "s"), req("s"))
	keep(err)
	keep(a.Power(ctx, "50", adapter.PowerReset))
	_, err = a.ListOffers(ctx, adapter.Query{})
	keep(err)
	keep(a.Check(ctx))
	keep(a.Delete(ctx, "50"))
	// Failures: refused credentials, an error body, a bound run out.
	f.failRoute, f.failN, f.failStatus, f.failBody = "GET /server", 3, 500, `{"error":{"status":500,"code":"INTERNAL_ERROR","message":"`+testPassword+`"}}`
	_, err = a.Get(ctx, "50")
	keep(err)
	f.failN = 0
	wrong := testAccount(t, f, log, nil)
	wrong.c.passRef = "provider://robot_user" // the user's value as password: refused
	_, err = wrong.Get(ctx, "50")
	keep(err)
	wrong.c.passRef = "env://ROBOT_PASSWORD_NOT_SET_" + testPassword[:3]
	_, err = wrong.Get(ctx, "50")
	keep(err)
	slow := testAccount(t, f, log, nil)
	slow.c.Timeout = time.Nanosecond
	_, err = slow.Get(ctx, "50")
	keep(err)

	logged := log.Lines()
	if len(errs) < 4 || len(logged) < 10 {
		t.Fatalf("the test saw %d errors and %d log lines; it must see failures and requests to mean anything", len(errs), len(logged))
	}
	for _, e := range errs {
		for _, secret := range []string{testUser, testPassword} {
			if strings.Contains(e.Error(), secret) {
				t.Errorf("error carries a credential: %v", e)
			}
		}
	}
	for _, l := range logged {
		for _, secret := range []string{testUser, testPassword, testKey} {
			if strings.Contains(l, secret) {
				t.Errorf("log line carries a secret or key: %s", l)
			}
		}
		if strings.Contains(l, "/50") {
			t.Errorf("log line shows a filled path, not a route template: %s", l)
		}
	}
}

func TestLogLinesNameRouteTemplates(t *testing.T) {
	f := newFake()
	f.add(60, "", "AX42", "FSN1-DC14", statusReady)
	log := &adaptertest.Log{}
	a := testAccount(t, f, log, nil)
	if _, err := a.Get(context.Background(), "60"); err != nil {
		t.Fatal(err)
	}
	if all := log.Lines(); len(all) != 1 || !strings.Contains(all[0], "route:/server/{n}") || !strings.Contains(all[0], "status:200") {
		t.Errorf("lines %q", all)
	}
}

func TestDefinitionSettings(t *testing.T) {
	d := Definition()
	if d.BlockName() != "hetzner_robot" || d.Kind != "robot" {
		t.Errorf("block %q kind %q", d.BlockName(), d.Kind)
	}
	norm, err := d.Normalize(map[string]string{"user": "env://ROBOT_USER", "password": "env://ROBOT_PASSWORD"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if norm["endpoint"] != DefaultEndpoint || norm["location"] != "fsn1" || norm["ssh_port"] != "22" || norm["allow_order"] != "false" {
		t.Errorf("defaults %v", norm)
	}
	bad := map[string]map[string]string{
		"password":    {"password": testPassword},
		"endpoint":    {"endpoint": "http://robot.example.com"},
		"location":    {"location": "FSN1"},
		"ssh_key":     {"ssh_key": "SHA256:abc"},
		"ssh_port":    {"ssh_port": "0"},
		"allow_order": {"allow_order": "yes"},
	}
	for field, extra := range bad {
		s := map[string]string{"user": "env://ROBOT_USER", "password": "env://ROBOT_PASSWORD"}
		for k, v := range extra {
			s[k] = v
		}
		_, err := d.Normalize(s, nil)
		if !adapter.Is(err, adapter.InvalidConfig) || adapter.FieldOf(err) != field || strings.Contains(err.Error(), testPassword) {
			t.Errorf("%s: %v", field, err)
		}
	}
	if rules.LabelKey.Allows("any") || !rules.MachineID.Allows("321") || rules.MachineID.Allows("0") {
		t.Error("rules")
	}
}
