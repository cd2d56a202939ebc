package bootstrap

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

const invalid = "Unable to use bootstrap host configuration"

// ValidateConfig holds every value the configuration knows to the
// contract's bootstrap rules (adapter.CheckHostname and its siblings), the
// ones an adapter keeps before it sends anything, so a value that would
// break an installer configuration, a shell line or a unit file is named on
// its attribute before anything is claimed. A value not known yet is
// checked by the adapter at apply. The rules' messages quote a value only
// where it cannot be a secret; content_wo is never looked at beyond being
// set.
func (r *Resource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var c model
	resp.Diagnostics.Append(req.Config.Get(ctx, &c)...)
	if resp.Diagnostics.HasError() {
		return
	}
	d := &resp.Diagnostics
	checkMachine(c, d)
	check(d, path.Root("hostname"), c.Hostname, adapter.CheckHostname)
	check(d, path.Root("image"), c.Image, adapter.CheckImage)
	for i, f := range c.files(ctx, d) {
		checkFile(path.Root("files").AtListIndex(i), f, d)
	}
	if fb := c.firstBoot(ctx, d); fb != nil {
		at := path.Root("first_boot")
		check(d, at.AtName("url"), fb.URL, adapter.CheckURL)
		check(d, at.AtName("sha256"), fb.SHA256, adapter.CheckSHA256)
		checkCommand(d, at.AtName("command"), fb.Command, true)
	}
	checkCommand(d, path.Root("ready_command"), c.ReadyCommand, false)
}

// checkMachine: exactly one of machine_id and offer_id.
func checkMachine(c model, d *diag.Diagnostics) {
	byID, byOffer := !c.MachineID.IsNull(), !c.OfferID.IsNull()
	switch {
	case byID && byOffer:
		d.AddAttributeError(path.Root("machine_id"), invalid,
			fmt.Sprintf("machine_id = %s and offer_id = %s are both set, but a host is claimed either as one machine or from an offer. "+
				"Remove offer_id to claim that machine, or machine_id to take a free machine of the offer.", shown(c.MachineID), shown(c.OfferID)))
	case !byID && !byOffer:
		d.AddAttributeError(path.Root("machine_id"), invalid,
			"Neither machine_id nor offer_id is set, so there is no machine to claim. Set machine_id to the number of a rented "+
				"machine, or offer_id to take a free machine of an offer (an id of the compute_offers data source).")
	}
}

// checkFile: a safe absolute path, an octal mode, exactly one content.
func checkFile(at path.Path, f fileModel, d *diag.Diagnostics) {
	check(d, at.AtName("path"), f.Path, adapter.CheckPath)
	check(d, at.AtName("mode"), f.Mode, adapter.CheckMode)
	bySecret, byValue := !f.Secret.IsNull(), !f.ContentWO.IsNull()
	switch {
	case bySecret && byValue:
		tfdiag.AddRefusal(d, at.AtName("secret"), f.Secret.ValueString(), true, invalid,
			fmt.Sprintf("File %s sets both secret and content_wo. Keep one: secret to name where the content lives, content_wo to give it.", plain(f.Path)))
	case !bySecret && !byValue:
		d.AddAttributeError(at, invalid,
			fmt.Sprintf("File %s has no content. Set secret to a secret reference (env://NAME, file:///path, provider://NAME) or content_wo to the content.", plain(f.Path)))
	case !f.ContentWOVersion.IsNull() && !byValue:
		d.AddAttributeError(at.AtName("content_wo_version"), invalid,
			fmt.Sprintf("File %s sets content_wo_version without content_wo; it says when content_wo changed. Remove it.", plain(f.Path)))
	}
	if bySecret && !f.Secret.IsUnknown() {
		if _, _, err := adapter.ParseRef(f.Secret.ValueString()); err != nil {
			tfdiag.AddRefusal(d, at.AtName("secret"), f.Secret.ValueString(), true, invalid, fmt.Sprintf("secret of file %s: %s", plain(f.Path), tfdiag.Message(err)))
		}
	}
}

// checkCommand: a non-empty argv of safe words, the first of a first-boot
// command an absolute path.
func checkCommand(d *diag.Diagnostics, at path.Path, l types.List, installed bool) {
	if l.IsNull() || l.IsUnknown() {
		return
	}
	elems := l.Elements()
	if len(elems) == 0 {
		d.AddAttributeError(at, invalid, fmt.Sprintf("%s is empty. Give at least the program, or remove it.", at))
		return
	}
	for i, e := range elems {
		s, ok := e.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		rule := adapter.CheckWord
		if i == 0 && installed {
			rule = func(v string) error {
				if err := adapter.CheckPath(v); err != nil {
					return adapter.Errorf(adapter.InvalidInput, "the first word is the absolute path the binary is installed at: %s", adapter.MessageOf(err))
				}
				return nil
			}
		}
		check(d, at.AtListIndex(i), s, rule)
	}
}

// check runs one rule on a known value and puts its refusal on at.
func check(d *diag.Diagnostics, at path.Path, v types.String, rule func(string) error) {
	if v.IsNull() || v.IsUnknown() {
		return
	}
	if err := rule(v.ValueString()); err != nil {
		tfdiag.AddRefusal(d, at, v.ValueString(), false, invalid, fmt.Sprintf("%s: %s", at, messageOf(err)))
	}
}

func messageOf(err error) string {
	if e, ok := err.(*adapter.Error); ok {
		return e.Message
	}
	return err.Error()
}

// plain quotes a value that cannot be a secret (a path).
func plain(v types.String) string {
	if v.IsUnknown() {
		return "(known after apply)"
	}
	return strconv.Quote(v.ValueString())
}

// shown quotes a value for a message, redacted where it could be a secret.
func shown(v types.String) string {
	if v.IsUnknown() {
		return "(known after apply)"
	}
	return adapter.Quoted(adapter.Redacted(v.ValueString()))
}
