package hcloud

import (
	"net/http"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/secrettap"
)

// PasswordTap keeps every root_password an answer carries (enable_rescue's,
// a create's; see secrettap).
type PasswordTap = secrettap.Tap

// NewPasswordTap returns a tap in front of next.
func NewPasswordTap(next http.Handler) *PasswordTap {
	return secrettap.NewJSON(next, "root_password")
}
