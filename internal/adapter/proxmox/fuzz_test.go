package proxmox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
)

// FuzzClassify: whatever an endpoint answers, each read, listing and delete
// of a VM comes back classified, NotFound only when PVE's cluster listing,
// which covers every node, answers and does not show the VM, and a VM read
// holds to the contract's states.
func FuzzClassify(f *testing.F) {
	conformance.AnswerSeeds(f,
		`{"data":[]}`,
		`{"data":[{"vmid":100,"name":"web","node":"pve1","status":"running","type":"qemu","tags":"compute"}]}`,
		`{"data":[{"vmid":100,"template":1,"type":"qemu"},{"vmid":101,"type":"lxc"}]}`,
		`{"data":[{"vmid":100,"type":"lxc"}]}`,
		`{"data":{"status":"running","lock":"clone","name":"web","tags":"compute"}}`,
		`{"data":null,"message":"Configuration file 'nodes/pve1/qemu-server/100.conf' does not exist\n"}`,
		`{"data":null,"message":"VM 100 is locked (clone)"}`,
		`{"data":null,"errors":{"name":"invalid format"}}`)
	answer := &conformance.Answer{}
	srv := httptest.NewTLSServer(answer)
	f.Cleanup(srv.Close)
	sum := sha256.Sum256(srv.Certificate().Raw)
	d := definition(testOptions())
	settings, err := d.Normalize(map[string]string{
		"endpoint": srv.URL, "api_token": "provider://pve_token", "tls_fingerprint": hex.EncodeToString(sum[:]),
		"flavors": `{"small":{"cores":2,"memory_mib":2048,"disk_gib":20}}`,
	}, nil)
	if err != nil {
		f.Fatal(err)
	}
	// One account for every run: it caches nothing one answer could teach
	// the next, and its connection, kept alive, spares a TLS handshake each.
	a, err := newAccount(settings, adapter.Env{Secrets: adapter.SecretResolver{Provider: map[string]string{"pve_token": fakeTokenID + "=" + fakeSecret}}}, testOptions())
	if err != nil {
		f.Fatal(err)
	}
	newAdapter := func() adapter.Adapter { return a }
	f.Fuzz(func(t *testing.T, call uint8, status int, body []byte) {
		conformance.FuzzAnswer(t, answer, newAdapter, "100",
			adapter.CreateRequest{Name: "web-1", OfferID: "small", Image: "ubuntu-24.04-cloud", PowerOn: true}, call, status, body, notListed)
	})
}

// notListed is PVE's proof that VM 100 is absent: the cluster listing
// answered, a list, and no VM 100 (other than a template or a container)
// is in it.
func notListed(status int, body []byte) bool {
	var env struct {
		Data *[]struct {
			VMID     int    `json:"vmid"`
			Template int    `json:"template"`
			Type     string `json:"type"`
		} `json:"data"`
	}
	if status >= 300 || json.Unmarshal(body, &env) != nil || env.Data == nil {
		return false
	}
	for _, r := range *env.Data {
		if r.VMID == 100 && r.Template != 1 && (r.Type == "" || r.Type == "qemu") {
			return false
		}
	}
	return true
}
