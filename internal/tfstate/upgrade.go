// Package tfstate upgrades the states older versions of the provider wrote.
// It knows the plugin framework and the contract's locators, nothing of any
// backend; resource packages use it in their UpgradeState.
package tfstate

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Rewrite is a state upgrader for a version whose attributes are the
// current ones, only some values written in an older form: fn rewrites the
// prior state's attributes, as Terraform stored them in JSON, in place.
// Declaring the older schema again would only repeat the current one.
func Rewrite(fn func(attrs map[string]any) error) resource.StateUpgrader {
	return resource.StateUpgrader{StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
		const summary = "Unable to upgrade state"
		if req.RawState == nil || len(req.RawState.JSON) == 0 {
			resp.Diagnostics.AddError(summary, "The prior state is not in JSON, which every Terraform since 0.12 writes; "+
				"remove the resource from state (terraform state rm) and import it again.")
			return
		}
		var attrs map[string]any
		if err := json.Unmarshal(req.RawState.JSON, &attrs); err != nil {
			resp.Diagnostics.AddError(summary, fmt.Sprintf("The prior state cannot be read (%v); remove the resource from state "+
				"(terraform state rm) and import it again.", err))
			return
		}
		if err := fn(attrs); err != nil {
			resp.Diagnostics.AddError(summary, err.Error())
			return
		}
		raw, err := json.Marshal(attrs)
		if err != nil {
			resp.Diagnostics.AddError(summary, fmt.Sprintf("The upgraded state cannot be written: %v; this is a bug in the provider.", err))
			return
		}
		resp.DynamicValue = &tfprotov6.DynamicValue{JSON: raw}
	}}
}

// MachineIDs rewrites an instance's or a bootstrap host's attributes from
// version 0, whose id was "ACCOUNT_ID/MACHINE_ID" with the account id in
// its query form, to version 1: the id is the machine's own id, and the
// account the same locator in its JSON form. Its name is not known here
// (version 0 ids have none); the next plan takes the configured account,
// with its name, in place.
func MachineIDs(attrs map[string]any) error {
	id, _ := attrs["id"].(string)
	loc, machineID, err := adapter.ParseInstanceID(id)
	if err != nil {
		return fmt.Errorf("The id %s in state is not of the form this version of the provider wrote: %s Remove the resource "+
			"from state (terraform state rm) and import it again with ACCOUNT_ID/MACHINE_ID.", adapter.Quoted(adapter.RedactID(id)), messageOf(err))
	}
	attrs["id"] = machineID
	if account, ok := attrs["account"].(string); ok {
		if l, err := adapter.ParseLocator(account); err == nil {
			attrs["account"] = l.String()
		} else {
			attrs["account"] = loc.String()
		}
	}
	return nil
}

// AccountID rewrites an account's attributes from version 0 to 1: the id
// becomes the JSON form of the same locator, with the account's name.
func AccountID(attrs map[string]any) error {
	id, _ := attrs["id"].(string)
	if id == "" {
		return nil
	}
	loc, err := adapter.ParseLocator(id)
	if err != nil {
		return fmt.Errorf("The account id %s in state cannot be read: %s Remove the account from state (terraform state rm) "+
			"and apply again; nothing remote belongs to an account.", adapter.Quoted(adapter.RedactID(id)), messageOf(err))
	}
	if name, ok := attrs["name"].(string); ok {
		loc.Name = name
	}
	attrs["id"] = loc.String()
	return nil
}

func messageOf(err error) string {
	if e, ok := err.(*adapter.Error); ok {
		return e.Message + "."
	}
	return err.Error()
}
