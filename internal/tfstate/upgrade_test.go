package tfstate

import (
	"strings"
	"testing"
)

// TestMachineIDs: a version 0 instance or bootstrap host (id
// ACCOUNT_ID/MACHINE_ID, account in the query form) comes out with the
// machine's own id and the account's JSON form; every other attribute is
// left as it was.
func TestMachineIDs(t *testing.T) {
	const account = "robot:endpoint=http%3A%2F%2F127.0.0.1%3A1%2Frobot&password=env%3A%2F%2FP&user=env%3A%2F%2FU"
	attrs := map[string]any{"id": account + "/2100001", "account": account, "machine_id": "2100001", "phase": "ready"}
	if err := MachineIDs(attrs); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"id": "2100001", "machine_id": "2100001", "phase": "ready",
		"account": `{"endpoint":"http://127.0.0.1:1/robot","kind":"robot","password":"env://P","user":"env://U"}`}
	for k, v := range want {
		if attrs[k] != v {
			t.Errorf("%s = %v, want %v", k, attrs[k], v)
		}
	}
}

// TestMachineIDsRefusesWhatItCannotRead: an id that is not of version 0's
// form fails with the way out, and never repeats what may be a secret.
func TestMachineIDsRefusesWhatItCannotRead(t *testing.T) {
	const secret = "SENTINEL-9f8e7d6c5b4a39281706"
	err := MachineIDs(map[string]any{"id": secret})
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "terraform state rm") {
		t.Fatalf("got %v", err)
	}
}

// TestAccountID: a version 0 account's id takes the JSON form with the
// account's name; an account without an id yet is left alone.
func TestAccountID(t *testing.T) {
	attrs := map[string]any{"id": "hcloud:location=fsn1&token=env%3A%2F%2FT", "name": "prod-cloud"}
	if err := AccountID(attrs); err != nil {
		t.Fatal(err)
	}
	if want := `{"kind":"hcloud","location":"fsn1","name":"prod-cloud","token":"env://T"}`; attrs["id"] != want {
		t.Fatalf("id = %v, want %s", attrs["id"], want)
	}
	empty := map[string]any{"name": "x"}
	if err := AccountID(empty); err != nil || empty["id"] != nil {
		t.Fatalf("%v %v", empty, err)
	}
}
