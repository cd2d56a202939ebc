package proxmox

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

type node struct {
	NodeSeed
	// addr is the loopback address its SSH server listens on, "" until
	// the SSH nodes start.
	addr string
	// storage holds the files of storage local by path below its root
	// (/var/lib/vz), "snippets/NAME".
	storage map[string][]byte
	modes   map[string]os.FileMode
}

// vm is one QEMU guest or template. conf holds the config keys verbatim
// as PVE keeps them in qemu-server/VMID.conf; name, description and tags
// are config keys there too.
type vm struct {
	vmid      int
	node      string
	template  bool
	status    string // running, stopped, or a word a Stage put there
	qmpstatus string
	lock      string
	conf      map[string]string
	startedAt time.Time
	// ip is the guest's host number in 192.0.2.0/24 and 2001:db8::/32.
	ip int
}

// VMSeed is a VM made behind the provider's back (an unmarked VM for
// import and SeedUnmarked tests). Zero VMID takes the next free one.
type VMSeed struct {
	VMID        int
	Name        string
	Node        string
	Tags        string
	Description string
	Running     bool
	Template    bool
	Cores       int
	MemoryMiB   int
	DiskGiB     int
}

func (v *vm) diskGiB() int {
	for _, key := range []string{"scsi0", "virtio0", "sata0", "ide0"} {
		if size, ok := diskSize(v.conf[key]); ok {
			return int(size >> 30)
		}
	}
	return 0
}

// diskSize reads size=… of a drive string in bytes.
func diskSize(drive string) (int64, bool) {
	for _, part := range strings.Split(drive, ",") {
		if s, ok := strings.CutPrefix(part, "size="); ok {
			return parseSize(s)
		}
	}
	return 0, false
}

// parseSize reads PVE's disk sizes: 10G, 512M, 1T, bare bytes.
func parseSize(s string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult = 1 << 10
	case strings.HasSuffix(s, "M"):
		mult = 1 << 20
	case strings.HasSuffix(s, "G"):
		mult = 1 << 30
	case strings.HasSuffix(s, "T"):
		mult = 1 << 40
	}
	if mult != 1 {
		s = s[:len(s)-1]
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 {
		return 0, false
	}
	return int64(f * float64(mult)), true
}

func formatSize(b int64) string {
	if b%(1<<30) == 0 {
		return fmt.Sprintf("%dG", b>>30)
	}
	return fmt.Sprintf("%dM", b>>20)
}

func setSize(drive string, size int64) string {
	parts := strings.Split(drive, ",")
	for i, p := range parts {
		if strings.HasPrefix(p, "size=") {
			parts[i] = "size=" + formatSize(size)
			return strings.Join(parts, ",")
		}
	}
	return drive + ",size=" + formatSize(size)
}

func (v *vm) memoryMiB() int {
	m, _ := strconv.Atoi(strings.TrimPrefix(strings.Split(v.conf["memory"], ",")[0], "current="))
	if m == 0 {
		m = 512
	}
	return m
}

func (v *vm) cores() int {
	c, _ := strconv.Atoi(v.conf["cores"])
	return max(c, 1)
}

// configData is the answer of GET config: the keys, typed as PVE types
// them, the lock and the digest of the config.
func (v *vm) configData() map[string]any {
	out := map[string]any{"digest": v.digest()}
	for k, val := range v.conf {
		out[k] = typedValue(configAnswerSchema(k), val)
	}
	if v.template {
		out["template"] = 1
	}
	if v.lock != "" {
		out["lock"] = v.lock
	}
	return out
}

// configAnswerSchema is the schema GET config gives key k, nil for none.
func configAnswerSchema(k string) *schema {
	m := apiSchema()["GET /nodes/{node}/qemu/{vmid}/config"]
	if m == nil || m.Returns == nil {
		return nil
	}
	return m.Returns.lookup(k)
}

// typedValue is val as JSON answers it for schema s: integers and
// booleans (1/0) as numbers, everything else as the text it is.
func typedValue(s *schema, val string) any {
	if s == nil {
		return val
	}
	switch s.Type {
	case "integer":
		if n, err := strconv.ParseInt(val, 10, 64); err == nil {
			return n
		}
	case "number":
		if f, err := strconv.ParseFloat(val, 64); err == nil {
			return f
		}
	case "boolean":
		if b, ok := parseBool(val); ok {
			return b2i(b)
		}
	}
	return val
}

// digest is the SHA-1 of the config as PVE computes it over the file.
func (v *vm) digest() string {
	keys := make([]string, 0, len(v.conf))
	for k := range v.conf {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := sha1.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s: %s\n", k, v.conf[k])
	}
	fmt.Fprintf(h, "lock: %s\ntemplate: %v\n", v.lock, v.template)
	return hex.EncodeToString(h.Sum(nil))
}

var tagRE = regexp.MustCompile(`(?i)^[a-z0-9_][a-z0-9_\-+.]*$`)

// normalizeTags splits a tag list on ';', ',' and spaces as PVE does,
// checks each tag, drops duplicates (case aside, PVE's tag-style default)
// and joins them with ';' sorted alphabetically, case aside: PVE's default
// tag-style ordering, which is why bpg sorts tags before it compares them.
func normalizeTags(s string) (string, *apiError) {
	var out []string
	seen := map[string]bool{}
	for _, t := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ',' || r == ' ' }) {
		if !tagRE.MatchString(t) {
			return "", paramError(map[string]string{"tags": fmt.Sprintf("invalid format - invalid characters in tag '%s'", t)})
		}
		if !seen[strings.ToLower(t)] {
			seen[strings.ToLower(t)] = true
			out = append(out, t)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return strings.Join(out, ";"), nil
}

func (e *Emulator) nodeLocked(name string) *node {
	for _, n := range e.nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// reachLocked is what pveproxy does with /nodes/{node}/…: an unknown
// name fails the host lookup, an offline node does not answer the proxy.
func (e *Emulator) reachLocked(name string) (*node, *apiError) {
	n := e.nodeLocked(name)
	if n == nil {
		return nil, failf(http.StatusInternalServerError, "hostname lookup '%s' failed - failed to get address info for: %s: Name or service not known", name, name)
	}
	if !n.Online {
		return nil, failf(595, "No route to host")
	}
	return n, nil
}

// vmLocked finds vmid on node as PVE does: by its config file there.
func (e *Emulator) vmLocked(nodeName, vmidText string) (*vm, *apiError) {
	if _, err := e.reachLocked(nodeName); err != nil {
		return nil, err
	}
	vmid, err := strconv.Atoi(vmidText)
	if err != nil || vmid < 100 || vmid > 999999999 {
		return nil, paramError(map[string]string{"vmid": "invalid format - value does not look like a valid VM ID"})
	}
	v, ok := e.vms[vmid]
	if !ok || v.node != nodeName {
		return nil, failf(http.StatusInternalServerError, "Configuration file 'nodes/%s/qemu-server/%d.conf' does not exist", nodeName, vmid)
	}
	return v, nil
}

// checkLock is PVE's check_lock: a config lock refuses every write.
func (v *vm) checkLock() *apiError {
	if v.lock != "" {
		return failf(http.StatusInternalServerError, "VM %d is locked (%s)", v.vmid, v.lock)
	}
	return nil
}

// checkLockUnlessSkipped is checkLock for a route that takes skiplock:
// skiplock=1 passes a locked VM, as PVE lets root do.
func (v *vm) checkLockUnlessSkipped(r *http.Request) *apiError {
	if boolParam(r, "skiplock") {
		return nil
	}
	return v.checkLock()
}

func (e *Emulator) macLocked(vmid int) string {
	return fmt.Sprintf("BC:24:11:%02X:%02X:%02X", (vmid>>16)&0xff, (vmid>>8)&0xff, vmid&0xff)
}

func (e *Emulator) addTemplateLocked(t TemplateSeed) {
	if t.DiskGiB <= 0 {
		t.DiskGiB = 10
	}
	v := &vm{vmid: t.VMID, node: t.Node, template: true, status: "stopped", conf: map[string]string{
		"name": t.Name, "cores": "2", "memory": "2048", "agent": "1", "boot": "order=scsi0",
		"scsihw": "virtio-scsi-pci", "ostype": "l26", "serial0": "socket", "vga": "serial0",
		"scsi0": fmt.Sprintf("local-lvm:base-%d-disk-0,size=%dG", t.VMID, t.DiskGiB),
		"ide2":  fmt.Sprintf("local-lvm:vm-%d-cloudinit,media=cdrom", t.VMID),
		"net0":  "virtio=" + e.macLocked(t.VMID) + ",bridge=vmbr0",
	}}
	e.vms[t.VMID] = v
}

// AddVM makes a VM as someone else would have, outside the provider:
// unmarked unless Tags and Description say otherwise. It returns the VMID.
func (e *Emulator) AddVM(s VMSeed) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s.Node == "" {
		s.Node = e.nodes[0].Name
	}
	if e.nodeLocked(s.Node) == nil {
		return 0, fmt.Errorf("proxmox emulator: no node %q", s.Node)
	}
	if s.VMID == 0 {
		s.VMID = e.nextFreeLocked(100)
	}
	if _, dup := e.vms[s.VMID]; dup {
		return 0, fmt.Errorf("proxmox emulator: VM %d already exists", s.VMID)
	}
	tags, terr := normalizeTags(s.Tags)
	if terr != nil {
		return 0, fmt.Errorf("proxmox emulator: tags %q: %s", s.Tags, terr.errors["tags"])
	}
	s.Cores, s.MemoryMiB, s.DiskGiB = max(s.Cores, 1), max(s.MemoryMiB, 1024), max(s.DiskGiB, 8)
	if s.Name == "" {
		s.Name = fmt.Sprintf("vm%d", s.VMID)
	}
	v := &vm{vmid: s.VMID, node: s.Node, template: s.Template, status: "stopped", qmpstatus: "stopped", conf: map[string]string{
		"name": s.Name, "cores": strconv.Itoa(s.Cores), "memory": strconv.Itoa(s.MemoryMiB), "agent": "1",
		"scsi0": fmt.Sprintf("local-lvm:vm-%d-disk-0,size=%dG", s.VMID, s.DiskGiB),
		"net0":  "virtio=" + e.macLocked(s.VMID) + ",bridge=vmbr0", "boot": "order=scsi0", "scsihw": "virtio-scsi-pci",
	}}
	if tags != "" {
		v.conf["tags"] = tags
	}
	if s.Description != "" {
		v.conf["description"] = s.Description
	}
	e.ipSeq++
	v.ip = e.ipSeq
	if s.Running && !s.Template {
		v.status, v.qmpstatus, v.startedAt = "running", "running", e.clock.Now()
	}
	e.vms[s.VMID] = v
	return s.VMID, nil
}

func (e *Emulator) nextFreeLocked(from int) int {
	for id := max(from, 100); ; id++ {
		if _, ok := e.vms[id]; !ok {
			return id
		}
	}
}
