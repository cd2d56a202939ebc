package marks

import (
	"maps"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The names of the mark's fields, after a spelling's prefix.
const (
	FieldManaged     = "managed"
	FieldKey         = "key"
	FieldFingerprint = "fingerprint"
	FieldClaim       = "claim"
	FieldUnconfirmed = "unconfirmed"
)

// yes is the value of the unconfirmed flag, and of the managed flag in
// Default.
const yes = "true"

// Labels spells the mark as key/value labels.
type Labels struct {
	// Prefix begins the name of each of the mark's labels, and is
	// reserved: a user's label under it is refused.
	Prefix string
	// ManagedValue is the value of the managed label on a managed machine;
	// any other value, or none, is a machine without the mark.
	ManagedValue string
}

// DefaultPrefix is the prefix of Default's labels, as released.
const DefaultPrefix = "compute.seedcompute.io/"

// Default is the spelling of every backend with key/value labels. It is a
// function, not a variable, so no importer can change at run time the
// spelling that machines made by released versions carry.
func Default() Labels { return Labels{Prefix: DefaultPrefix, ManagedValue: yes} }

// Name is the label that holds field (FieldKey, …).
func (l Labels) Name(field string) string { return l.Prefix + field }

// Reserved reports whether a label named key belongs to the mark, so a
// user may not set it.
func (l Labels) Reserved(key string) bool { return strings.HasPrefix(key, l.Prefix) }

// Selector selects the managed machines, in the label-selector syntax of
// Hetzner Cloud and Kubernetes.
func (l Labels) Selector() string { return l.Name(FieldManaged) + "=" + l.ManagedValue }

// KeySelector selects the machines that carry the create key key.
func (l Labels) KeySelector(key string) string { return l.Name(FieldKey) + "=" + key }

// Put returns the user's labels with the mark beside them, as the backend
// stores them: managed, key and fingerprint always, the claim when there
// is one, unconfirmed only while it is. user is not changed.
func (l Labels) Put(user map[string]string, m adapter.Mark) map[string]string {
	out := make(map[string]string, len(user)+5)
	maps.Copy(out, user)
	out[l.Name(FieldManaged)] = l.ManagedValue
	out[l.Name(FieldKey)] = m.Key
	out[l.Name(FieldFingerprint)] = m.Fingerprint
	if m.Claim != "" {
		out[l.Name(FieldClaim)] = m.Claim
	}
	if m.Unconfirmed {
		out[l.Name(FieldUnconfirmed)] = yes
	}
	return out
}

// Read splits a machine's labels into the mark and the user's labels.
// Labels under the prefix are the mark's (one this version does not know,
// a later version's, is dropped, never shown as the user's); every other
// label is the user's, whoever wrote it. user is never nil.
func (l Labels) Read(labels map[string]string) (managed bool, m adapter.Mark, user map[string]string) {
	user = map[string]string{}
	for k, v := range labels {
		if !l.Reserved(k) {
			user[k] = v
		}
	}
	m = adapter.Mark{
		Key:         labels[l.Name(FieldKey)],
		Fingerprint: labels[l.Name(FieldFingerprint)],
		Claim:       labels[l.Name(FieldClaim)],
		Unconfirmed: labels[l.Name(FieldUnconfirmed)] == yes,
	}
	return labels[l.Name(FieldManaged)] == l.ManagedValue, m, user
}

// Stored is what the backend holds for a machine read through Read and
// Machine.SetMark: its user labels and the mark it carries. An update whose labels
// equal it writes nothing.
func (l Labels) Stored(m adapter.Machine) map[string]string {
	out := maps.Clone(m.Labels)
	if out == nil {
		out = map[string]string{}
	}
	for field, v := range map[string]string{FieldKey: m.Key, FieldFingerprint: m.Fingerprint, FieldClaim: m.Claim} {
		if v != "" {
			out[l.Name(field)] = v
		}
	}
	if m.Managed {
		out[l.Name(FieldManaged)] = l.ManagedValue
	}
	if m.Unconfirmed {
		out[l.Name(FieldUnconfirmed)] = yes
	}
	return out
}

// CheckUser refuses a user's label under the prefix, which would forge or
// remove the mark: InvalidInput on the labels.
func (l Labels) CheckUser(labels map[string]string) error {
	for k := range labels {
		if l.Reserved(k) {
			return adapter.Errorf(adapter.InvalidInput, "label %q uses the prefix %s, which is reserved for the provider's own marks; rename the label", k, l.Prefix).WithField(adapter.FieldLabels)
		}
	}
	return nil
}

// Refuse is the refusal of a machine without the managed label (Unmarked);
// verb names the call ("delete"), machine the machine.
func (l Labels) Refuse(verb, machine, id string) *adapter.Error {
	return adapter.Unmarked{What: verb, Machine: machine, ID: id, Lacks: "carries no " + l.Name(FieldManaged) + " label"}.Refuse()
}
