package adapter

import (
	"strings"
	"testing"
)

func TestLocatorRoundTrip(t *testing.T) {
	l := Locator{Kind: "hcloud", Name: "prod-cloud", Settings: map[string]string{
		"token": "env://HCLOUD_TOKEN", "location": "fsn1", "endpoint": "http://127.0.0.1:8080/v1?a&b", "empty": "",
	}}
	s := l.String()
	// Sorted members, no HTML escaping, empty settings left out: one
	// account, one id.
	if s != `{"endpoint":"http://127.0.0.1:8080/v1?a&b","kind":"hcloud","location":"fsn1","name":"prod-cloud","token":"env://HCLOUD_TOKEN"}` {
		t.Fatalf("unexpected text form %s", s)
	}
	back, err := ParseLocator(s)
	if err != nil || back.String() != s || back.Settings["token"] != "env://HCLOUD_TOKEN" || back.Name != "prod-cloud" {
		t.Fatalf("%+v %v", back, err)
	}
	if _, named := back.Settings["name"]; named {
		t.Fatal("the name is no setting")
	}
	id := InstanceID(back, "42")
	acc, machine, err := ParseInstanceID(id)
	if err != nil || machine != "42" || acc.String() != s {
		t.Fatalf("%v %q %v", acc, machine, err)
	}
	if l.Scope([]string{"endpoint"}) != "hcloud&endpoint=http://127.0.0.1:8080/v1?a&b" {
		t.Fatalf("scope %q", l.Scope([]string{"endpoint"}))
	}
	renamed := back
	renamed.Name = "other"
	if renamed.Key() != l.Key() || renamed.String() == l.String() || strings.Contains(l.Key(), "prod-cloud") {
		t.Fatalf("Key must leave the name out: %s / %s", renamed.Key(), l.Key())
	}
}

// TestLocatorReadsTheQueryForm: ids written before accounts carried their
// name still parse, to the same settings, without a name.
func TestLocatorReadsTheQueryForm(t *testing.T) {
	old := "hcloud:endpoint=http%3A%2F%2F127.0.0.1%3A8080%2Fv1&location=fsn1&token=env%3A%2F%2FHCLOUD_TOKEN"
	l, err := ParseLocator(old)
	if err != nil || l.Kind != "hcloud" || l.Name != "" || l.Settings["endpoint"] != "http://127.0.0.1:8080/v1" || len(l.Settings) != 3 {
		t.Fatalf("%+v %v", l, err)
	}
	if l.String() != `{"endpoint":"http://127.0.0.1:8080/v1","kind":"hcloud","location":"fsn1","token":"env://HCLOUD_TOKEN"}` {
		t.Fatalf("converted: %s", l.String())
	}
	acc, machine, err := ParseInstanceID(old + "/42")
	if err != nil || machine != "42" || acc.String() != l.String() {
		t.Fatalf("%v %q %v", acc, machine, err)
	}
}

func TestParseLocatorRejects(t *testing.T) {
	for _, s := range []string{"", "hcloud", ":a=b", "hcloud:a=b&a=c", "hcloud:a=%zz", "hcloud:a=b/c",
		`{"name":"x"}`, `{"kind":"hcloud","port":22}`, `{"kind":"hcloud"} {}`, `{"kind":`} {
		if _, err := ParseLocator(s); !Is(err, InvalidInput) {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"42", "hcloud:a=b/", "/42"} {
		if _, _, err := ParseInstanceID(s); !Is(err, InvalidInput) || !strings.Contains(err.Error(), "ACCOUNT_ID/MACHINE_ID") {
			t.Errorf("%q: %v", s, err)
		}
	}
}

func TestIdempotencyKeyAndFingerprint(t *testing.T) {
	k := IdempotencyKey("hcloud&endpoint=x", "web-1")
	if len(k) != 32 || k != IdempotencyKey("hcloud&endpoint=x", "web-1") || k == IdempotencyKey("hcloud&endpoint=x", "web-2") {
		t.Fatalf("key %q must be 32 hex digits, stable, and differ by name", k)
	}
	a := CreateRequest{OfferID: "cx22", Image: "ubuntu-24.04", Location: "fsn1", UserData: sentinel}
	b := a
	b.UserData = "other"
	if Fingerprint(a) == Fingerprint(b) || strings.Contains(Fingerprint(a), sentinel) {
		t.Fatal("fingerprint must depend on user data only through a digest")
	}
	b = a
	b.Name, b.Labels = "renamed", map[string]string{"x": "y"}
	if Fingerprint(a) != Fingerprint(b) {
		t.Fatal("name and labels do not decide what machine a request makes")
	}
}

// TestParseInstanceIDNamesWhatIsWrong: an empty MACHINE_ID and a segment
// too many are named as such, not blamed on the account id.
func TestParseInstanceIDNamesWhatIsWrong(t *testing.T) {
	acc := `{"endpoint":"http://127.0.0.1:1/v1","kind":"hcloud","location":"fsn1","token":"env://HCLOUD_TOKEN"}`
	for _, tc := range []struct{ id, want string }{
		{acc + "/", "MACHINE_ID is empty"},
		{acc + "/4200003/extra", "2 path segments after ACCOUNT_ID"},
		{"4200003", "it is not an import id"},
	} {
		_, _, err := ParseInstanceID(tc.id)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseInstanceID(%q) = %v, want an error that says %q", tc.id, err, tc.want)
		}
	}
	if l, m, err := ParseInstanceID(acc + "/4200003"); err != nil || m != "4200003" || l.Kind != "hcloud" {
		t.Errorf("a good import id: %v %q %v", l, m, err)
	}
}
