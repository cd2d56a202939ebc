package bootstrap_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// metal is a backend of rented machines that exists only in these tests,
// kept in memory: machines exist before they are claimed, a claim is a
// mark on the machine, a release takes it off. Its Bootstrap walks the
// phases, can be made to fail one, holds one until released (an apply cut
// short), and counts the installs it really does: a machine whose disk
// carries the request's install fingerprint is never installed again.
type metal struct {
	mu       sync.Mutex
	servers  map[string]*server
	installs int
	releases int
	// failAt fails the named phase with code (once per Bootstrap call)
	// until cleared.
	failAt   adapter.Phase
	failCode adapter.Code
	// delivered holds the content each path last received, the proof that
	// write-only values and secrets reached the machine.
	delivered map[string]string
	next      int
}

type server struct {
	adapter.Machine
	// installed is the install fingerprint on the machine's disk, hostKey
	// the installed system's key.
	installed, hostKey string
}

func newMetal() *metal {
	m := &metal{servers: map[string]*server{}, delivered: map[string]string{}, next: 100}
	for _, offer := range []string{"ax41", "ax41", "ax101"} {
		m.add(offer, "")
	}
	return m
}

// add racks a machine of offer, named name.
func (mt *metal) add(offer, name string) string {
	mt.next++
	id := fmt.Sprint(mt.next)
	mt.servers[id] = &server{Machine: adapter.Machine{ID: id, Name: name, OfferID: offer, Location: "fsn1", State: adapter.StateRunning,
		IPv4: fmt.Sprintf("127.0.9.%d", mt.next-100), IPv6: "2001:db8::/64", RawState: "ready"}}
	return id
}

func (mt *metal) server(id string) server {
	mt.mu.Lock()
	defer mt.mu.Unlock()
	return *mt.servers[id]
}

func (mt *metal) count() (installs, releases int) {
	mt.mu.Lock()
	defer mt.mu.Unlock()
	return mt.installs, mt.releases
}

func (mt *metal) fail(p adapter.Phase, code adapter.Code) {
	mt.mu.Lock()
	defer mt.mu.Unlock()
	mt.failAt, mt.failCode = p, code
}

var metalCaps = adapter.Capabilities{adapter.CapBootstrap, adapter.CapUpdate}

// metalDefinitions are the test backend, and a second kind without the
// bootstrap capability for the plan-time refusal.
func metalDefinitions(mt *metal) []adapter.Definition {
	settings := []adapter.Setting{
		{Name: "api_key", Description: "secret reference to the key", Required: true, Role: adapter.RoleSecret},
		{Name: "url", Description: "the API", Default: "https://metal.example/api", Role: adapter.RoleEndpoint, Scope: true},
	}
	newAccount := func(s map[string]string, env adapter.Env) (adapter.Adapter, error) {
		return &metalAccount{metal: mt, key: s["api_key"], secrets: env.Secrets}, nil
	}
	return []adapter.Definition{
		{Kind: "metal", Description: "Test machines.", Block: "metal_test", Capabilities: metalCaps, Settings: settings, New: newAccount},
		{Kind: "plain", Description: "Test machines that cannot bootstrap.", Block: "plain_test", Capabilities: adapter.Capabilities{}, Settings: settings,
			New: newAccount},
	}
}

func metalServer(mt *metal) map[string]func() (tfprotov6.ProviderServer, error) {
	// The test's kinds first: the registry lists kinds in registration
	// order, and the refusals name the test's own among those that can
	// bootstrap before the shipped ones.
	reg := adapter.NewRegistry(append(metalDefinitions(mt), provider.DefaultRegistry().Definitions()...)...)
	return map[string]func() (tfprotov6.ProviderServer, error){
		"compute": providerserver.NewProtocol6WithError(provider.New("test", provider.WithRegistry(reg), provider.WithClock(acctest.FastClock{}))()),
	}
}

type metalAccount struct {
	*metal
	key     string
	secrets adapter.Secrets
}

var (
	_ adapter.Bootstrapper = (*metalAccount)(nil)
	_ adapter.Updater      = (*metalAccount)(nil)
)

func (a *metalAccount) Kind() string { return "metal" }

func (a *metalAccount) auth(ctx context.Context) error {
	if v, err := a.secrets.Resolve(ctx, a.key); err != nil || v != acctest.Token {
		return adapter.Errorf(adapter.AccessDenied, "the metal key is refused")
	}
	return nil
}

func (a *metalAccount) ListOffers(ctx context.Context, q adapter.Query) ([]adapter.Offer, error) {
	return []adapter.Offer{{ID: "ax41", Location: "fsn1", Available: true, PricePerMonth: 39}}, a.auth(ctx)
}

func (a *metalAccount) Create(ctx context.Context, call adapter.Call, req adapter.CreateRequest) (adapter.Machine, error) {
	if err := a.auth(ctx); err != nil {
		return adapter.Machine{}, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	fp := adapter.Fingerprint(req)
	for _, s := range a.servers {
		if s.Key == call.IdempotencyKey {
			if err := adapter.Adoptable("claim", s.Machine, call, fp, time.Now()); err != nil {
				return adapter.Machine{}, err
			}
			s.PriorClaim, s.Claim, s.Unconfirmed = s.Claim, call.Claim, true
			m := s.Machine
			m.Adopted = true
			return m, nil
		}
	}
	var s *server
	if req.MachineID != "" {
		s = a.servers[req.MachineID]
		if s == nil {
			return adapter.Machine{}, adapter.Errorf(adapter.InvalidInput, "there is no machine %s", req.MachineID).WithField("machine_id")
		}
		if s.Managed || s.Name != "" && s.Name != req.Name {
			return adapter.Machine{}, adapter.Errorf(adapter.Conflict, "machine %s is named %q", s.ID, s.Name)
		}
	} else {
		ids := make([]string, 0, len(a.servers))
		for id := range a.servers {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			if c := a.servers[id]; !c.Managed && c.Name == "" && c.OfferID == req.OfferID {
				s = c
				break
			}
		}
		if s == nil {
			return adapter.Machine{}, adapter.Errorf(adapter.InvalidState, "no free machine of offer %s", req.OfferID).WithField(adapter.FieldOfferID)
		}
	}
	s.Name, s.Managed, s.Key, s.Fingerprint, s.Claim, s.Unconfirmed = req.Name, true, call.IdempotencyKey, fp, call.Claim, true
	return s.Machine, nil
}

func (a *metalAccount) Get(ctx context.Context, id string) (adapter.Machine, error) {
	if err := a.auth(ctx); err != nil {
		return adapter.Machine{}, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if s, ok := a.servers[id]; ok {
		return s.Machine, nil
	}
	return adapter.Machine{}, adapter.Errorf(adapter.NotFound, "no machine %s", id)
}

// Delete releases: the mark comes off and the machine stays rented.
func (a *metalAccount) Delete(ctx context.Context, id string) error {
	if err := a.auth(ctx); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.servers[id]
	switch {
	case !ok:
		return adapter.Errorf(adapter.NotFound, "no machine %s", id)
	case !s.Managed:
		return adapter.Errorf(adapter.AccessDenied, "machine %s is not managed", id)
	}
	s.Name, s.Managed, s.Key, s.Fingerprint, s.Claim = "", false, "", "", ""
	a.releases++
	return nil
}

func (a *metalAccount) Update(ctx context.Context, id string, req adapter.UpdateRequest) (adapter.Machine, error) {
	if err := a.auth(ctx); err != nil {
		return adapter.Machine{}, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.servers[id]
	if !ok {
		return adapter.Machine{}, adapter.Errorf(adapter.NotFound, "no machine %s", id)
	}
	if req.Mark != nil {
		s.Managed, s.Key, s.Fingerprint, s.Claim, s.Unconfirmed = true, req.Mark.Key, req.Mark.Fingerprint, req.Mark.Claim, req.Mark.Unconfirmed
	}
	return s.Machine, nil
}

// Bootstrap walks the phases from p (a failed one is run again), as the
// contract says: each phase idempotent, an install only when the disk does
// not carry the request's fingerprint.
func (a *metalAccount) Bootstrap(ctx context.Context, id string, req adapter.BootstrapRequest, p adapter.Progress, report func(adapter.Progress)) (adapter.Progress, error) {
	if err := a.auth(ctx); err != nil {
		return p, err
	}
	if err := adapter.CheckBootstrap(req); err != nil {
		return p, err
	}
	start := p.Phase
	if start == adapter.PhaseFailed {
		start = p.FailedPhase
	}
	p.FailedPhase, p.Reason = "", ""
	for _, phase := range adapter.Phases[1:] {
		if start != "" && start != adapter.PhaseClaiming && phaseIndex(phase) < phaseIndex(start) {
			continue
		}
		p.Phase = phase
		report(p)
		if err := a.run(ctx, id, req, &p); err != nil {
			p.Phase, p.FailedPhase, p.Reason = adapter.PhaseFailed, phase, err.(*adapter.Error).Message
			return p, err
		}
	}
	return p, nil
}

func phaseIndex(p adapter.Phase) int { return slices.Index(adapter.Phases, p) }

// run does one phase.
func (a *metalAccount) run(ctx context.Context, id string, req adapter.BootstrapRequest, p *adapter.Progress) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.failAt == p.Phase {
		return adapter.Errorf(a.failCode, "the %s phase failed as the test asked", p.Phase)
	}
	s := a.servers[id]
	switch p.Phase {
	case adapter.PhaseRescue:
		p.RescueHostKey = "ED25519 SHA256:rescue" + id
	case adapter.PhaseIdentifying:
		p.ProductUUID = "4c4c4544-0000-0000-0000-00000000" + id
	case adapter.PhaseInstalling:
		fp := installFingerprint(req)
		if s.installed != fp {
			for _, f := range req.Files {
				content := string(f.Value)
				if f.Ref != "" {
					v, err := a.secrets.Resolve(ctx, f.Ref)
					if err != nil {
						return adapter.Errorf(adapter.InvalidConfig, "file %s: its secret cannot be resolved", f.Path)
					}
					content = v
				}
				a.delivered[f.Path] = content
			}
			a.installs++
			s.installed, s.hostKey = fp, fmt.Sprintf("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5install%d", a.installs)
		}
		p.InstallFingerprint, p.HostKey = fp, s.hostKey
	}
	return nil
}

// installFingerprint digests what is installed, never a content.
func installFingerprint(req adapter.BootstrapRequest) string {
	parts := []string{req.Image, req.Hostname, string(req.Disks)}
	for _, f := range req.Files {
		parts = append(parts, f.Path, f.Mode, f.Ref, f.Version)
	}
	if fb := req.FirstBoot; fb != nil {
		parts = append(parts, fb.URL, fb.SHA256, strings.Join(fb.Command, " "))
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:16])
}
