package conformance

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// pasted is a secret as a user might paste it where a machine id belongs.
const pasted = "tc_live_Q9x7Vb2Lm4Np8Rs6Tu1Wy3Za5Cd0Ef"

// pastedIDsAreRedacted: a secret pasted as a machine id is refused by every
// call as InvalidInput that names the rule, and the refusal repeats it only
// redacted (rule 6, no secret leaves, and rule 10, ids, of internal/adapter's
// package documentation): the diagnostic would show it otherwise.
func pastedIDsAreRedacted(t *testing.T, s *suite) {
	rule := s.Definition.Rules.MachineID
	if rule.Allows(pasted) {
		t.Skip("the machine id rule allows a pasted token, so it is no malformed id here")
	}
	for what, call := range s.idCalls(t) {
		err := call(s.ctx(t), pasted)
		if !adapter.Is(err, adapter.InvalidInput) || strings.Contains(err.Error(), pasted) || !strings.Contains(err.Error(), rule.Text) {
			t.Errorf("%s(a pasted token): %v; want InvalidInput naming the rule (%s) without the token", what, err, rule.Text)
		}
	}
}
