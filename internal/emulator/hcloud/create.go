package hcloud

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"time"
)

// ref is an "ID or name" field; the API and hcloud-go send it as a JSON
// string or number.
type ref string

func (r *ref) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*r = ref(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("want an ID or a name, got %s", b)
	}
	if _, err := n.Int64(); err != nil {
		return fmt.Errorf("want an integer ID, got %s", b)
	}
	*r = ref(n.String())
	return nil
}

type createServerRequest struct {
	Name             *string            `json:"name"`
	ServerType       *ref               `json:"server_type"`
	Image            *ref               `json:"image"`
	Location         *ref               `json:"location"`
	Datacenter       *ref               `json:"datacenter"`
	StartAfterCreate *bool              `json:"start_after_create"`
	SSHKeys          []ref              `json:"ssh_keys"`
	UserData         *string            `json:"user_data"`
	Labels           *map[string]string `json:"labels"`
	PublicNet        *struct {
		EnableIPv4 *bool  `json:"enable_ipv4"`
		EnableIPv6 *bool  `json:"enable_ipv6"`
		IPv4       *int64 `json:"ipv4"`
		IPv6       *int64 `json:"ipv6"`
	} `json:"public_net"`
	// The emulator has none of these resources, so any reference to one is
	// a reference to something that does not exist.
	Volumes        []int64 `json:"volumes"`
	Networks       []int64 `json:"networks"`
	Firewalls      []any   `json:"firewalls"`
	PlacementGroup *int64  `json:"placement_group"`
}

const (
	maxUserData     = 32 * 1024
	invalidHostname = "Must be a valid hostname (RFC 1123)."
)

var hostnameLabel = regexp.MustCompile(`^[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?$`)

func validHostname(name string) bool {
	if name == "" || len(name) > 253 {
		return false
	}
	for _, l := range bytes.Split([]byte(name), []byte(".")) {
		if !hostnameLabel.Match(l) {
			return false
		}
	}
	return true
}

// validate reports field errors the way the API does: all of them at once,
// before any reference is resolved.
func (req *createServerRequest) validate() *apiError {
	var fields []fieldError
	switch {
	case req.Name == nil || *req.Name == "":
		fields = append(fields, fieldError{Name: "name", Messages: []string{missingField}})
	case !validHostname(*req.Name):
		fields = append(fields, fieldError{Name: "name", Messages: []string{invalidHostname}})
	}
	if req.ServerType == nil || *req.ServerType == "" {
		fields = append(fields, fieldError{Name: "server_type", Messages: []string{missingField}})
	}
	if req.Image == nil || *req.Image == "" {
		fields = append(fields, fieldError{Name: "image", Messages: []string{missingField}})
	}
	if req.Location != nil && req.Datacenter != nil {
		fields = append(fields, fieldError{Name: "location", Messages: []string{"Must not be used together with datacenter."}})
	}
	if req.UserData != nil && len(*req.UserData) > maxUserData {
		fields = append(fields, fieldError{Name: "user_data", Messages: []string{fmt.Sprintf("Longer than maximum length %d.", maxUserData)}})
	}
	if req.Labels != nil {
		if fe := checkLabels(*req.Labels); fe != nil {
			fields = append(fields, *fe)
		}
	}
	if len(fields) > 0 {
		return invalidFields(fields...)
	}
	return nil
}

// placement is what a create request resolves to in the catalog.
type placement struct {
	typ *serverType
	img *image
	loc *location
}

// resolve looks the references up in the catalog with the real API's
// answers: unknown names are invalid_input, a location the type is not
// offered in is invalid_input, and a type sold out there is
// resource_unavailable.
func (e *Emulator) resolve(req *createServerRequest) (placement, *apiError) {
	var p placement
	if p.typ = e.cat.serverType(string(*req.ServerType)); p.typ == nil {
		return p, invalidInput("server type not found")
	}
	arch := p.typ.wire.Architecture
	if p.img = e.cat.image(string(*req.Image), arch); p.img == nil {
		return p, invalidInput("image not found")
	}
	if p.img.wire.Architecture != arch {
		return p, invalidInput("image architecture %s does not match server type architecture %s", p.img.wire.Architecture, arch)
	}
	switch {
	case req.Location != nil:
		if p.loc = e.cat.location(string(*req.Location)); p.loc == nil {
			return p, invalidInput("location not found")
		}
	case req.Datacenter != nil:
		dc := e.cat.datacenter(string(*req.Datacenter))
		if dc == nil {
			return p, invalidInput("datacenter not found")
		}
		p.loc = dc.loc
	default:
		// Like the API, place the server where the type is available.
		for _, l := range e.cat.locations {
			if slices.Contains(p.typ.available, l.wire.Name) {
				p.loc = l
				break
			}
		}
		if p.loc == nil {
			return p, &apiError{status: http.StatusPreconditionFailed, code: "resource_unavailable",
				message: fmt.Sprintf("server type %s is not available in any location", p.typ.wire.Name)}
		}
	}
	name := p.loc.wire.Name
	if !slices.Contains(p.typ.supported, name) {
		return p, invalidInput("unsupported location for server type")
	}
	if !slices.Contains(p.typ.available, name) {
		return p, &apiError{status: http.StatusPreconditionFailed, code: "resource_unavailable",
			message: fmt.Sprintf("server type %s is not available in location %s", p.typ.wire.Name, name)}
	}
	switch {
	case len(req.Volumes) > 0:
		return p, invalidInput("volume not found")
	case len(req.Networks) > 0:
		return p, invalidInput("network not found")
	case len(req.Firewalls) > 0:
		return p, invalidInput("firewall not found")
	case req.PlacementGroup != nil:
		return p, invalidInput("placement group not found")
	case req.PublicNet != nil && (req.PublicNet.IPv4 != nil || req.PublicNet.IPv6 != nil):
		return p, invalidInput("primary ip not found")
	}
	return p, nil
}

func (e *Emulator) createServer(w http.ResponseWriter, r *http.Request) {
	var req createServerRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, jsonError(err))
		return
	}
	if err := req.validate(); err != nil {
		writeError(w, err)
		return
	}
	p, err := e.resolve(&req)
	if err != nil {
		writeError(w, err)
		return
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	now := time.Now()
	e.advanceLocked(now, nil)
	keys, err := e.resolveSSHKeysLocked(req.SSHKeys)
	if err != nil {
		writeError(w, err)
		return
	}
	if e.serverByNameLocked(*req.Name) != nil {
		writeError(w, uniqueness("server name is already used", "name"))
		return
	}
	s := &server{
		id: e.nextIDLocked("server"), name: *req.Name, status: "initializing",
		typ: p.typ, image: p.img, loc: p.loc, created: now.UTC().Truncate(time.Second),
		sshKeys: keys,
	}
	if req.Labels != nil {
		s.labels = maps.Clone(*req.Labels)
	}
	if req.UserData != nil {
		s.userData = *req.UserData
	}
	if req.PublicNet == nil || req.PublicNet.EnableIPv4 == nil || *req.PublicNet.EnableIPv4 {
		s.ipv4 = &primaryIP{id: e.nextIDLocked("primary_ip"), addr: e.addrs.takeV4()}
	}
	if req.PublicNet == nil || req.PublicNet.EnableIPv6 == nil || *req.PublicNet.EnableIPv6 {
		s.ipv6 = &primaryIP{id: e.nextIDLocked("primary_ip"), addr: e.addrs.takeV6()}
	}
	e.servers[s.id] = s

	start := req.StartAfterCreate == nil || *req.StartAfterCreate
	create := e.startActionLocked(s, "create_server", now)
	create.onSuccess, create.onFailure = "off", "off"
	next := []*action{}
	if start {
		if !e.opts.OffBeforeStart {
			create.onSuccess = "starting"
		}
		a := e.startActionLocked(s, "start_server", now)
		a.after, a.onSuccess, a.onFailure = create, "running", "off"
		next = append(next, a)
	}
	e.advanceLocked(now, nil)

	var rootPassword *string
	if len(keys) == 0 {
		pw := randomPassword()
		rootPassword = &pw
	}
	nextWire := make([]wireAction, len(next))
	for i, a := range next {
		nextWire[i] = a.wire()
	}
	writeJSON(w, http.StatusCreated, map[string]any{
		"server": s.wire(), "action": create.wire(), "next_actions": nextWire, "root_password": rootPassword,
	})
}

func (e *Emulator) resolveSSHKeysLocked(refs []ref) ([]int64, *apiError) {
	var ids []int64
	for _, r := range refs {
		k := e.sshKeyLocked(string(r))
		if k == nil {
			return nil, invalidInput("ssh key %s not found", strconv.Quote(string(r)))
		}
		ids = append(ids, k.id)
	}
	return ids, nil
}

func randomPassword() string {
	const alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
