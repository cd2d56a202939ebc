package bootstrap

import (
	"context"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// model is compute_bootstrap_host as plan and state hold it. Files'
// content_wo is always null here: it is write-only, read from the
// configuration alone.
type model struct {
	ID                 types.String  `tfsdk:"id"`
	Account            types.String  `tfsdk:"account"`
	MachineID          types.String  `tfsdk:"machine_id"`
	OfferID            types.String  `tfsdk:"offer_id"`
	Location           types.String  `tfsdk:"location"`
	MaxMonthlyPrice    types.Float64 `tfsdk:"max_monthly_price"`
	Hostname           types.String  `tfsdk:"hostname"`
	Image              types.String  `tfsdk:"image"`
	Disks              types.String  `tfsdk:"disks"`
	Files              types.List    `tfsdk:"files"`
	FirstBoot          types.Object  `tfsdk:"first_boot"`
	ReadyCommand       types.List    `tfsdk:"ready_command"`
	ProductUUID        types.String  `tfsdk:"product_uuid"`
	IPv4               types.String  `tfsdk:"ipv4"`
	IPv6               types.String  `tfsdk:"ipv6"`
	Phase              types.String  `tfsdk:"phase"`
	FailedPhase        types.String  `tfsdk:"failed_phase"`
	Reason             types.String  `tfsdk:"reason"`
	KnownHosts         types.String  `tfsdk:"known_hosts"`
	RescueHostKey      types.String  `tfsdk:"rescue_host_key"`
	InstallFingerprint types.String  `tfsdk:"install_fingerprint"`
	Ready              types.Bool    `tfsdk:"ready"`
	Claim              types.String  `tfsdk:"claim"`
	Timeouts           types.Object  `tfsdk:"timeouts"`
}

type fileModel struct {
	Path             types.String `tfsdk:"path"`
	Mode             types.String `tfsdk:"mode"`
	Secret           types.String `tfsdk:"secret"`
	ContentWO        types.String `tfsdk:"content_wo"`
	ContentWOVersion types.Int64  `tfsdk:"content_wo_version"`
}

type firstBoot struct {
	URL     types.String `tfsdk:"url"`
	SHA256  types.String `tfsdk:"sha256"`
	Command types.List   `tfsdk:"command"`
}

// files reads the files list; nil when null or unknown.
func (m *model) files(ctx context.Context, diags *diag.Diagnostics) []fileModel {
	if m.Files.IsNull() || m.Files.IsUnknown() {
		return nil
	}
	var out []fileModel
	diags.Append(m.Files.ElementsAs(ctx, &out, false)...)
	return out
}

// firstBoot reads first_boot; nil when null or unknown.
func (m *model) firstBoot(ctx context.Context, diags *diag.Diagnostics) *firstBoot {
	if m.FirstBoot.IsNull() || m.FirstBoot.IsUnknown() {
		return nil
	}
	var fb firstBoot
	diags.Append(m.FirstBoot.As(ctx, &fb, basetypes.ObjectAsOptions{})...)
	return &fb
}

// listOf reads a list of strings; nil when null or unknown.
func listOf(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	var out []string
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}

// createRequest is the claim the plan asks for. Its fingerprint covers
// offer, image, location and machine, so a rerun adopts the machine it
// claimed before only when it asks for the same.
func (m *model) createRequest() adapter.CreateRequest {
	return adapter.CreateRequest{
		Name:            m.Hostname.ValueString(),
		OfferID:         m.OfferID.ValueString(),
		Image:           m.Image.ValueString(),
		Location:        m.Location.ValueString(),
		MachineID:       m.MachineID.ValueString(),
		MaxMonthlyPrice: m.MaxMonthlyPrice.ValueFloat64(),
		PowerOn:         true,
	}
}

// bootstrapRequest is what the host is to become. Write-only contents come
// from config, the configuration's copy of the plan (plan and state hold
// them null); they live in the returned request for this call only.
func (m *model) bootstrapRequest(ctx context.Context, config *model, diags *diag.Diagnostics) adapter.BootstrapRequest {
	req := adapter.BootstrapRequest{
		Image:        m.Image.ValueString(),
		Hostname:     m.Hostname.ValueString(),
		Disks:        adapter.DiskLayout(m.Disks.ValueString()),
		ReadyCommand: listOf(ctx, m.ReadyCommand, diags),
		Timeouts:     phaseBounds(m.Timeouts),
	}
	var configFiles []fileModel
	if config != nil {
		configFiles = config.files(ctx, diags)
	}
	for i, f := range m.files(ctx, diags) {
		file := adapter.File{Path: f.Path.ValueString(), Mode: f.Mode.ValueString(), Ref: f.Secret.ValueString()}
		if !f.ContentWOVersion.IsNull() {
			file.Version = strconv.FormatInt(f.ContentWOVersion.ValueInt64(), 10)
		}
		if i < len(configFiles) && !configFiles[i].ContentWO.IsNull() && !configFiles[i].ContentWO.IsUnknown() {
			file.Value = []byte(configFiles[i].ContentWO.ValueString())
		}
		req.Files = append(req.Files, file)
	}
	if fb := m.firstBoot(ctx, diags); fb != nil {
		req.FirstBoot = &adapter.FirstBoot{URL: fb.URL.ValueString(), SHA256: fb.SHA256.ValueString(), Command: listOf(ctx, fb.Command, diags)}
	}
	return req
}

// progress is what state knows of the bootstrap, to hand back to the
// adapter.
func (m *model) progress() adapter.Progress {
	p := adapter.Progress{
		Phase:              adapter.Phase(m.Phase.ValueString()),
		FailedPhase:        adapter.Phase(m.FailedPhase.ValueString()),
		Reason:             m.Reason.ValueString(),
		ProductUUID:        m.ProductUUID.ValueString(),
		RescueHostKey:      m.RescueHostKey.ValueString(),
		InstallFingerprint: m.InstallFingerprint.ValueString(),
	}
	// known_hosts is "<address> <type> <key>": the key is what follows the
	// address.
	if _, key, ok := strings.Cut(m.KnownHosts.ValueString(), " "); ok {
		p.HostKey = key
	}
	return p
}

// setProgress records p. known_hosts needs the address, so it is written
// by setMachine.
func (m *model) setProgress(p adapter.Progress) {
	m.Phase = optional(string(p.Phase))
	m.FailedPhase = optional(string(p.FailedPhase))
	m.Reason = optional(p.Reason)
	m.ProductUUID = optional(p.ProductUUID)
	m.RescueHostKey = optional(p.RescueHostKey)
	m.InstallFingerprint = optional(p.InstallFingerprint)
	m.KnownHosts = knownHosts(m.IPv4.ValueString(), p.HostKey)
	m.Ready = types.BoolValue(false)
}

// setMachine records what the backend reports of the machine: its id, its
// addresses, whether it runs. hostKey is the installed system's key.
func (m *model) setMachine(mc adapter.Machine, hostKey string) {
	m.ID = types.StringValue(mc.ID)
	m.MachineID = types.StringValue(mc.ID)
	m.IPv4 = optional(mc.IPv4)
	m.IPv6 = optional(mc.IPv6)
	m.KnownHosts = knownHosts(mc.IPv4, hostKey)
	m.Ready = types.BoolValue(m.Phase.ValueString() == string(adapter.PhaseReady) && mc.State == adapter.StateRunning)
}

// knownHosts is the known_hosts line of the installed system, null until
// its key is known.
func knownHosts(ipv4, hostKey string) types.String {
	if ipv4 == "" || hostKey == "" {
		return types.StringNull()
	}
	return types.StringValue(ipv4 + " " + hostKey)
}

func optional(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}
