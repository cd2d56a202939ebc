package robot_test

import (
	"net/http"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

// TestKeysAreNamedByTheirMD5Fingerprint checks fingerprints, types and
// sizes against ssh-keygen's, and the key routes' errors.
func TestKeysAreNamedByTheirMD5Fingerprint(t *testing.T) {
	v := start(t, robot.Options{})
	for _, c := range []struct {
		data, fp, typ string
		size          int
	}{{edKey, edKeyFP, "ED25519", 256}, {rsaKey, rsaFP, "RSA", 2048}} {
		a := v.call(t, "POST", "/key", form("name", c.typ, "data", c.data))
		var k keyEnvelope
		a.decode(t, &k)
		if a.status != http.StatusCreated || k.Key.Fingerprint != c.fp || k.Key.Type != c.typ || k.Key.Size != c.size || k.Key.Data != c.data {
			t.Errorf("%s: %d %+v", c.typ, a.status, k)
		}
	}
	v.call(t, "POST", "/key", form("name", "again", "data", edKey)).errorIs(t, 409, "KEY_ALREADY_EXISTS")
	if e := v.call(t, "POST", "/key", form("data", "ssh-ed25519 bm90IGEga2V5")).errorIs(t, 400, "INVALID_INPUT"); len(e.Missing) != 1 || e.Missing[0] != "name" {
		t.Errorf("missing %v", e.Missing)
	}
	if e := v.call(t, "POST", "/key", form("name", "x", "data", "ssh-ed25519 bm90IGEga2V5")).errorIs(t, 400, "INVALID_INPUT"); len(e.Invalid) != 1 {
		t.Errorf("invalid %v", e.Invalid)
	}
	var k keyEnvelope
	v.call(t, "POST", "/key/"+edKeyFP, form("name", "renamed")).decode(t, &k)
	if k.Key.Name != "renamed" {
		t.Errorf("renamed %+v", k)
	}
	if a := v.call(t, "DELETE", "/key/"+edKeyFP, nil); a.status != http.StatusNoContent {
		t.Errorf("delete: %d", a.status)
	}
	v.call(t, "GET", "/key/"+edKeyFP, nil).errorIs(t, 404, "NOT_FOUND")
}
