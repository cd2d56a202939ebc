package proxmox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// fake is a small PVE API for the unit tests, until the emulator of
// internal/emulator/proxmox runs the conformance suite: the routes the
// adapter uses, in PVE's shapes, with tasks that end at once unless a test
// holds them, and counters by route.
type fake struct {
	t   *testing.T
	srv *httptest.Server

	mu     sync.Mutex
	vms    map[int]*fakeVM
	nodes  []node
	tasks  map[string]*fakeTask
	seq    int
	counts map[string]int
	authed int
	// holdClone, when set, keeps every clone task running until closed.
	holdClone chan struct{}
	// templateLocks counts clones running per template; contention counts
	// clones that found the template's lock taken.
	templateLocks map[int]int
	contention    int
	// onClone runs (under the fake's lock) as a clone request arrives,
	// before the VMID is checked: a concurrent create that got there first.
	onClone func(newid int)
	// agentHang makes every agent request wait until the client leaves.
	agentHang bool
	// failNext fails the next request of a route with status and reason.
	failRoute, failReason string
	failStatus, failN     int
	// failSkip lets that many requests of the route through before failing.
	failSkip int
	failBody string
	// conns counts the connections clients opened, each a TLS handshake.
	// It is atomic, not under mu: httptest calls ConnState holding its own
	// lock, and a handler that holds mu while it hijacks the connection
	// (rawAnswer) takes that lock too, so mu here would deadlock the two.
	conns atomic.Int64
}

type fakeVM struct {
	resource
	cfg    map[string]string
	agent  bool
	guest4 string
}

type fakeTask struct {
	done chan struct{}
	exit string
}

const (
	fakeTokenID = "terraform@pve!compute"
	fakeSecret  = "5f0c2a8e-7d31-4b61-9a0b-2c6ad1f0e9b7"
)

func newFake(t *testing.T) *fake {
	f := &fake{t: t, vms: map[int]*fakeVM{}, tasks: map[string]*fakeTask{}, counts: map[string]int{}, templateLocks: map[int]int{},
		nodes: []node{{Node: "pve1", Status: "online", MaxCPU: 32, MaxMem: 64 << 30}, {Node: "pve2", Status: "online", MaxCPU: 32, MaxMem: 128 << 30}}}
	f.vms[9000] = &fakeVM{resource: resource{VMID: 9000, Name: "ubuntu-24.04-cloud", Node: "pve1", Status: "stopped", Template: 1, Type: "qemu"},
		cfg: map[string]string{"scsi0": "local-lvm:base-9000-disk-0,size=10G", "ide2": "local-lvm:cloudinit,media=cdrom", "agent": "1", "boot": "order=scsi0", "name": "ubuntu-24.04-cloud"}}
	f.srv = httptest.NewUnstartedServer(http.HandlerFunc(f.serve))
	f.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			f.conns.Add(1)
		}
	}
	f.srv.StartTLS()
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) fingerprint() string {
	sum := sha256.Sum256(f.srv.Certificate().Raw)
	return hex.EncodeToString(sum[:])
}

// connections is how many connections clients have opened.
func (f *fake) connections() int {
	return int(f.conns.Load())
}

func (f *fake) count(route string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts[route]
}

// pveError answers as pveproxy does: the message in the HTTP reason
// phrase, the body {"data":null} (or body, for parameter errors).
// net/http cannot set a reason phrase, so the answer is written raw.
func pveError(w http.ResponseWriter, status int, msg string) {
	rawAnswer(w, status, msg, `{"data":null}`)
}

func rawAnswer(w http.ResponseWriter, status int, reason, body string) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	_, _ = fmt.Fprintf(buf, "HTTP/1.1 %03d %s\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, reason, len(body), body)
	_ = buf.Flush()
}

func data(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"data": v})
}

// route names a request as the counters do: "POST /nodes/{node}/qemu/{vmid}/clone".
func route(method, path string) (string, []string) {
	parts := strings.Split(strings.TrimPrefix(path, "/api2/json/"), "/")
	var args []string
	for i, p := range parts {
		switch {
		case i == 1 && parts[0] == "nodes":
			args = append(args, p)
			parts[i] = "{node}"
		case i == 3 && parts[2] == "qemu":
			args = append(args, p)
			parts[i] = "{vmid}"
		case i == 3 && parts[2] == "tasks":
			args = append(args, p)
			parts[i] = "{upid}"
		case i == 1 && parts[0] == "storage":
			args = append(args, p)
			parts[i] = "{storage}"
		}
	}
	return method + " /" + strings.Join(parts, "/"), args
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "PVEAPIToken="+fakeTokenID+"="+fakeSecret {
		pveError(w, 401, "authentication failure")
		return
	}
	_ = r.ParseForm()
	rt, args := route(r.Method, r.URL.Path)
	f.mu.Lock()
	f.authed++
	f.counts[rt]++
	if f.failN > 0 && f.failRoute == rt && f.failSkip > 0 {
		f.failSkip--
	} else if f.failN > 0 && f.failRoute == rt {
		f.failN--
		status, reason, body := f.failStatus, f.failReason, f.failBody
		f.mu.Unlock()
		if body == "" {
			body = `{"data":null}`
		}
		rawAnswer(w, status, reason, body)
		return
	}
	hang := f.agentHang
	f.mu.Unlock()
	if strings.HasSuffix(rt, "/agent/network-get-interfaces") && hang {
		<-r.Context().Done()
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	vmid := 0
	if len(args) > 1 {
		vmid, _ = strconv.Atoi(args[1])
	}
	vm := f.vms[vmid]
	switch {
	case rt == "GET /version":
		data(w, map[string]string{"version": "8.3.0", "release": "8.3"})
	case rt == "GET /nodes":
		data(w, f.nodes)
	case rt == "GET /cluster/status":
		data(w, []map[string]any{{"type": "node", "name": "pve1", "ip": "127.0.0.1"}})
	case rt == "GET /cluster/resources":
		var out []resource
		for _, v := range f.vms {
			out = append(out, v.resource)
		}
		data(w, out)
	case rt == "GET /storage/{storage}":
		data(w, map[string]string{"type": "dir", "path": "/var/lib/vz", "content": "images,snippets"})
	case rt == "GET /nodes/{node}/tasks/{upid}/status":
		t := f.tasks[args[1]]
		if t == nil {
			pveError(w, 500, "no such task")
			return
		}
		select {
		case <-t.done:
			data(w, map[string]string{"status": "stopped", "exitstatus": t.exit})
		default:
			data(w, map[string]string{"status": "running"})
		}
	case vm == nil || vm.Node != args[0]:
		if rt == "POST /nodes/{node}/qemu/{vmid}/clone" {
			pveError(w, 500, "unable to find configuration file for VM "+args[1])
			return
		}
		pveError(w, 500, fmt.Sprintf("Configuration file 'nodes/%s/qemu-server/%s.conf' does not exist", args[0], args[1]))
	case rt == "POST /nodes/{node}/qemu/{vmid}/clone":
		f.clone(w, r, vm)
	case rt == "GET /nodes/{node}/qemu/{vmid}/config":
		cfg := map[string]any{"digest": "x"}
		for k, v := range vm.cfg {
			cfg[k] = v
		}
		if vm.Tags != "" {
			cfg["tags"] = vm.Tags
		}
		data(w, cfg)
	case rt == "POST /nodes/{node}/qemu/{vmid}/config", rt == "PUT /nodes/{node}/qemu/{vmid}/config":
		if vm.Lock != "" {
			pveError(w, 500, fmt.Sprintf("VM %d is locked (%s)", vmid, vm.Lock))
			return
		}
		for k, v := range r.PostForm {
			switch k {
			case "tags":
				vm.Tags = v[0]
			case "name":
				vm.Name = v[0]
				vm.cfg[k] = v[0]
			case "cores":
				vm.MaxCPU, _ = strconv.Atoi(v[0])
				vm.cfg[k] = v[0]
			case "memory":
				m, _ := strconv.Atoi(v[0])
				vm.MaxMem = int64(m) << 20
				vm.cfg[k] = v[0]
			default:
				vm.cfg[k] = v[0]
			}
		}
		data(w, nil)
	case rt == "PUT /nodes/{node}/qemu/{vmid}/resize":
		vm.cfg[r.PostForm.Get("disk")] = strings.Split(vm.cfg[r.PostForm.Get("disk")], ",")[0] + ",size=" + r.PostForm.Get("size")
		data(w, f.task(vm.Node, "resize", vmid, nil))
	case rt == "GET /nodes/{node}/qemu/{vmid}/status/current":
		data(w, map[string]any{"status": vm.Status, "lock": vm.Lock, "name": vm.Name, "tags": vm.Tags, "vmid": vmid})
	case strings.HasPrefix(rt, "POST /nodes/{node}/qemu/{vmid}/status/"):
		if vm.Lock != "" {
			pveError(w, 500, fmt.Sprintf("VM %d is locked (%s)", vmid, vm.Lock))
			return
		}
		switch cmd := rt[strings.LastIndex(rt, "/")+1:]; cmd {
		case "start", "reboot", "reset":
			vm.Status = "running"
		case "stop", "shutdown":
			vm.Status = "stopped"
		}
		data(w, f.task(vm.Node, "qm"+rt[strings.LastIndex(rt, "/")+1:], vmid, nil))
	case rt == "GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces":
		if vm.Status != "running" || !vm.agent {
			pveError(w, 500, "QEMU guest agent is not running")
			return
		}
		data(w, map[string]any{"result": []map[string]any{
			{"name": "lo", "ip-addresses": []map[string]any{{"ip-address-type": "ipv4", "ip-address": "127.0.0.1"}, {"ip-address-type": "ipv6", "ip-address": "::1"}}},
			{"name": "eth0", "ip-addresses": []map[string]any{{"ip-address-type": "ipv6", "ip-address": "fe80::1"}, {"ip-address-type": "ipv4", "ip-address": vm.guest4}, {"ip-address-type": "ipv6", "ip-address": "2001:db8::" + strconv.FormatInt(int64(vmid%0xffff), 16)}}},
		}})
	case rt == "DELETE /nodes/{node}/qemu/{vmid}":
		if vm.Status == "running" {
			pveError(w, 500, fmt.Sprintf("VM %d is running - destroy failed", vmid))
			return
		}
		delete(f.vms, vmid)
		data(w, f.task(vm.Node, "qmdestroy", vmid, nil))
	default:
		pveError(w, 501, fmt.Sprintf("Method '%s' not implemented", rt))
	}
}

// task starts a task that ends when hold is closed (nil: at once).
func (f *fake) task(node, kind string, vmid int, hold chan struct{}) string {
	f.seq++
	upid := fmt.Sprintf("UPID:%s:%08X:0012F00D:6565A1B2:%s:%d:%s:", node, f.seq, kind, vmid, fakeTokenID)
	t := &fakeTask{done: make(chan struct{}), exit: "OK"}
	f.tasks[upid] = t
	if hold == nil {
		close(t.done)
	}
	return upid
}

func (f *fake) clone(w http.ResponseWriter, r *http.Request, tpl *fakeVM) {
	newid, _ := strconv.Atoi(r.PostForm.Get("newid"))
	if f.onClone != nil {
		f.onClone(newid)
	}
	if _, ok := f.vms[newid]; ok {
		pveError(w, 500, fmt.Sprintf("unable to create VM %d - VM %d already exists", newid, newid))
		return
	}
	if f.templateLocks[tpl.VMID] > 0 {
		f.contention++
		pveError(w, 500, fmt.Sprintf("can't lock file '/var/lock/qemu-server/lock-%d.conf' - got timeout", tpl.VMID))
		return
	}
	node := tpl.Node
	if t := r.PostForm.Get("target"); t != "" {
		node = t
	}
	cfg := map[string]string{"description": r.PostForm.Get("description"), "name": r.PostForm.Get("name")}
	for k, v := range tpl.cfg {
		if k != "name" {
			cfg[k] = strings.Replace(v, "base-9000", fmt.Sprintf("vm-%d", newid), 1)
		}
	}
	vm := &fakeVM{resource: resource{VMID: newid, Name: r.PostForm.Get("name"), Node: node, Status: "stopped", Type: "qemu", Lock: "clone"},
		cfg: cfg, agent: true, guest4: fmt.Sprintf("192.0.2.%d", 1+len(f.vms)%250)}
	f.vms[newid] = vm
	hold := f.holdClone
	f.templateLocks[tpl.VMID]++
	upid := f.task(tpl.Node, "qmclone", newid, hold)
	t := f.tasks[upid]
	end := func() {
		f.templateLocks[tpl.VMID]--
		vm.Lock = ""
	}
	if hold == nil {
		end()
	} else {
		go func() {
			<-hold
			f.mu.Lock()
			end()
			f.mu.Unlock()
			close(t.done)
		}()
	}
	data(w, upid)
}

// addVM seeds a VM by hand, as a user would make one.
func (f *fake) addVM(vmid int, name, tags, desc, status string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.vms[vmid] = &fakeVM{resource: resource{VMID: vmid, Name: name, Node: "pve1", Status: status, Tags: tags, Type: "qemu"},
		cfg: map[string]string{"description": desc, "scsi0": fmt.Sprintf("local-lvm:vm-%d-disk-0,size=10G", vmid)}, agent: true, guest4: "192.0.2.200"}
}

// testAccount opens an account on f with a pinned certificate.
func testAccount(t *testing.T, f *fake, extra map[string]string) *account {
	t.Helper()
	settings := map[string]string{
		"endpoint": f.srv.URL, "api_token": "provider://pve_token", "tls_fingerprint": f.fingerprint(),
		"flavors": `{"small":{"cores":2,"memory_mib":2048,"disk_gib":20},"large":{"cores":8,"memory_mib":16384,"disk_gib":80}}`,
	}
	for k, v := range extra {
		settings[k] = v
	}
	d := definition(testOptions())
	norm, err := d.Normalize(settings, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := newAccount(norm, adapter.Env{Secrets: adapter.SecretResolver{Provider: map[string]string{"pve_token": fakeTokenID + "=" + fakeSecret}}}, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func testOptions() options {
	o := defaultOptions()
	o.task = adapter.Backoff{Initial: time.Millisecond, Max: 5 * time.Millisecond}
	o.requestTimeout = 5 * time.Second
	return o
}
