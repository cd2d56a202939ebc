package instance

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

// model is compute_instance as plan and state hold it. UserData is always
// null here: it is write-only and read from the configuration alone.
type model struct {
	ID             types.String `tfsdk:"id"`
	Account        types.String `tfsdk:"account"`
	Name           types.String `tfsdk:"name"`
	OfferID        types.String `tfsdk:"offer_id"`
	Image          types.String `tfsdk:"image"`
	Location       types.String `tfsdk:"location"`
	UserData       types.String `tfsdk:"user_data"`
	UserDataSHA256 types.String `tfsdk:"user_data_sha256"`
	Labels         types.Map    `tfsdk:"labels"`
	Power          types.String `tfsdk:"power"`
	State          types.String `tfsdk:"state"`
	RawState       types.String `tfsdk:"raw_state"`
	IPv4           types.String `tfsdk:"ipv4_address"`
	IPv6           types.String `tfsdk:"ipv6_address"`
	CreatedAt      types.String `tfsdk:"created_at"`
	Managed        types.Bool   `tfsdk:"managed"`
	Claim          types.String `tfsdk:"claim"`
	// ShutdownTimeout bounds a graceful shutdown or reboot (power.go);
	// TriggersRestart restarts the machine when it changes (restart.go).
	ShutdownTimeout  types.String   `tfsdk:"shutdown_timeout"`
	TriggersRestart  types.Map      `tfsdk:"triggers_restart"`
	AvailableActions types.List     `tfsdk:"available_actions"`
	Timeouts         timeouts.Value `tfsdk:"timeouts"`
}

// Power values.
const (
	powerOn  = "on"
	powerOff = "off"
)

// digest is user_data_sha256 for a configured user data value: null without
// user data, unknown while the value is.
func digest(userData types.String) types.String {
	switch {
	case userData.IsUnknown():
		return types.StringUnknown()
	case userData.IsNull() || userData.ValueString() == "":
		return types.StringNull()
	}
	sum := sha256.Sum256([]byte(userData.ValueString()))
	return types.StringValue(hex.EncodeToString(sum[:]))
}

// setMachine copies what the backend reports into m. Values the backend does
// not report keep their prior value: power while the machine is between
// states, the image once known (backends name images differently from what
// was asked for), and the offer and location when the backend is silent.
func (m *model) setMachine(ctx context.Context, mc adapter.Machine) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(mc.ID)
	// account stays as configured: it must equal the planned value.
	m.Name = types.StringValue(mc.Name)
	if mc.OfferID != "" {
		m.OfferID = types.StringValue(mc.OfferID)
	}
	if (m.Image.IsNull() || m.Image.IsUnknown()) && mc.Image != "" {
		m.Image = types.StringValue(mc.Image)
	}
	if mc.Location != "" {
		m.Location = types.StringValue(mc.Location)
	}
	labels := mc.Labels
	if labels == nil {
		labels = map[string]string{}
	}
	m.Labels, diags = types.MapValueFrom(ctx, types.StringType, labels)
	switch mc.State {
	case adapter.StateRunning:
		m.Power = types.StringValue(powerOn)
	case adapter.StateStopped:
		m.Power = types.StringValue(powerOff)
	default:
		if m.Power.IsNull() || m.Power.IsUnknown() {
			m.Power = types.StringValue(powerOn)
		}
	}
	m.State = types.StringValue(string(mc.State))
	m.RawState = types.StringValue(mc.RawState)
	m.IPv4 = optional(mc.IPv4)
	m.IPv6 = optional(mc.IPv6)
	if mc.CreatedAt.IsZero() {
		m.CreatedAt = types.StringNull()
	} else {
		m.CreatedAt = types.StringValue(mc.CreatedAt.UTC().Format(time.RFC3339))
	}
	m.Managed = types.BoolValue(mc.Managed)
	diags.Append(m.setActions(ctx, mc)...)
	if m.ShutdownTimeout.IsNull() || m.ShutdownTimeout.IsUnknown() {
		// An imported machine gets the default the configuration has.
		m.ShutdownTimeout = types.StringValue(tftimeouts.Short(defaultShutdownTimeout))
	}
	m.UserData = types.StringNull()
	if m.UserDataSHA256.IsUnknown() {
		m.UserDataSHA256 = types.StringNull()
	}
	if m.Timeouts.IsUnknown() {
		m.Timeouts = timeouts.Value{Object: types.ObjectNull(m.Timeouts.AttributeTypes(ctx))}
	}
	return diags
}

func optional(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// labels returns the planned labels; nil when unknown or null.
func (m *model) labels(ctx context.Context) (map[string]string, diag.Diagnostics) {
	if m.Labels.IsNull() || m.Labels.IsUnknown() {
		return nil, nil
	}
	out := map[string]string{}
	diags := m.Labels.ElementsAs(ctx, &out, false)
	return out, diags
}

// known reports whether every value is known and not null.
func known(vs ...attr.Value) bool {
	for _, v := range vs {
		if v.IsNull() || v.IsUnknown() {
			return false
		}
	}
	return true
}

// recordCreated fills a create's plan with what the backend answered, every
// unknown made known or null, so that state can hold the machine before the
// wait for it to settle.
func (m *model) recordCreated(mc adapter.Machine) {
	m.ID = types.StringValue(mc.ID)
	if m.Location.IsUnknown() {
		m.Location = optional(mc.Location)
	}
	m.State = optional(string(mc.State))
	m.RawState = optional(mc.RawState)
	m.IPv4 = optional(mc.IPv4)
	m.IPv6 = optional(mc.IPv6)
	m.CreatedAt = types.StringNull()
	if !mc.CreatedAt.IsZero() {
		m.CreatedAt = types.StringValue(mc.CreatedAt.UTC().Format(time.RFC3339))
	}
	m.Managed = types.BoolValue(mc.Managed)
	m.setActions(context.Background(), mc)
	if m.UserDataSHA256.IsUnknown() {
		m.UserDataSHA256 = types.StringNull()
	}
}

// setActions records what the adapter can do to the machine now.
func (m *model) setActions(ctx context.Context, mc adapter.Machine) diag.Diagnostics {
	names := make([]string, len(mc.Actions))
	for i, a := range mc.Actions {
		names[i] = string(a)
	}
	var diags diag.Diagnostics
	m.AvailableActions, diags = types.ListValueFrom(ctx, types.StringType, names)
	return diags
}

// shutdownTimeout is the planned bound of a graceful shutdown or reboot.
func (m *model) shutdownTimeout() time.Duration {
	return tftimeouts.ParseBound(m.ShutdownTimeout.ValueString(), known(m.ShutdownTimeout), defaultShutdownTimeout)
}
