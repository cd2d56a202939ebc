package marks

import (
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Text spells the mark as "name: value" lines, one per field, after the
// user's own text in a free-text field (a description or notes), for a
// backend without labels. The names are those of Labels with its prefix.
type Text Labels

// Put returns the user's text followed by the mark's block: managed, key,
// fingerprint and claim (written even when empty) and unconfirmed while it
// is, one line each, after a blank line when there is user text.
func (t Text) Put(user string, m adapter.Mark) string {
	l := Labels(t)
	block := l.Name(FieldManaged) + ": " + t.ManagedValue + "\n" +
		l.Name(FieldKey) + ": " + m.Key + "\n" +
		l.Name(FieldFingerprint) + ": " + m.Fingerprint + "\n" +
		l.Name(FieldClaim) + ": " + m.Claim + "\n"
	if m.Unconfirmed {
		block += l.Name(FieldUnconfirmed) + ": " + yes + "\n"
	}
	if strings.TrimSpace(user) == "" {
		return block
	}
	return strings.TrimRight(user, "\n") + "\n\n" + block
}

// Read reads the mark out of a text and returns what else the text holds,
// the user's, as it was (line ends of either kind, trailing line ends
// dropped). A line is the mark's when its name, up to the first colon, is
// one of the mark's fields under the prefix; one under the prefix that this
// version does not know is the mark's too inside the mark's block (after
// its managed line, where a later version may add a field) and the user's
// before it, so a user's own "compute-node: rack 3" survives a rewrite.
// Every other line is the user's.
func (t Text) Read(text string) (managed bool, m adapter.Mark, user string) {
	l := Labels(t)
	var rest []string
	inBlock := false
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		k, v, ok := strings.Cut(line, ":")
		field := strings.TrimPrefix(k, t.Prefix)
		if !ok || !l.Reserved(k) || !inBlock && !knownField(field) {
			rest = append(rest, line)
			continue
		}
		v = strings.TrimSpace(v)
		switch field {
		case FieldManaged:
			inBlock = true
			managed = v == t.ManagedValue
		case FieldKey:
			m.Key = v
		case FieldFingerprint:
			m.Fingerprint = v
		case FieldClaim:
			m.Claim = v
		case FieldUnconfirmed:
			m.Unconfirmed = v == yes
		}
	}
	return managed, m, strings.TrimRight(strings.Join(rest, "\n"), "\n")
}

// knownField reports whether field is one of the mark's.
func knownField(field string) bool {
	switch field {
	case FieldManaged, FieldKey, FieldFingerprint, FieldClaim, FieldUnconfirmed:
		return true
	}
	return false
}
