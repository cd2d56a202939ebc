package poweraction

import (
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The boot into rescue differs by backend in what it waits for, which key
// logs in and how an armed rescue is withdrawn by hand. Each adapter that
// offers it says so in its definition's notes (adapter.NoteRescueWait,
// NoteRescueLogin, NoteRescueUndo), so this package names no backend.

// summaryOf is the first paragraph of the action's documentation.
func summaryOf(reg *adapter.Registry, k kind) string {
	if !k.rescue {
		return k.summary
	}
	return k.summary + rescueNotes(reg, adapter.NoteRescueWait, "it waits until ") +
		" Log in as `root` from wherever you hold the key's private half: `ssh root@ADDRESS`, the instance's `ipv4` address." +
		rescueNotes(reg, adapter.NoteRescueLogin, "log in ")
}

// nextPlanOf is what the documentation says of the next plan, and for the
// boot into rescue how an interrupted one is undone.
func nextPlanOf(reg *adapter.Registry, k kind) string {
	if !k.rescue {
		return k.nextPlan
	}
	return k.nextPlan + rescueNotes(reg, adapter.NoteRescueUndo, "")
}

// rescueNotes is, for each adapter that offers the boot into rescue, its
// note under key as a sentence: " On `KIND` accounts, " lead note ".".
func rescueNotes(reg *adapter.Registry, key, lead string) string {
	if reg == nil {
		return ""
	}
	var b strings.Builder
	for _, d := range reg.Definitions() {
		if n := strings.TrimSuffix(d.Notes[key], "."); n != "" && d.Capabilities.Has(adapter.CapRescue) {
			b.WriteString(" On `" + d.Kind + "` accounts, " + lead + n + ".")
		}
	}
	return b.String()
}

// loginLine is the way in the progress names once the machine runs its
// rescue system: "as root " and the adapter's NoteRescueLogin, plain.
func loginLine(def adapter.Definition) string {
	how := strings.ReplaceAll(def.Notes[adapter.NoteRescueLogin], "`", "")
	if how == "" {
		how = "with the SSH key the account names for it"
	}
	return "log in as root " + how
}
