package robot

import (
	"net/http"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/secrettap"
)

// PasswordTap keeps the password of every rescue activation an answer
// carries (see secrettap).
type PasswordTap = secrettap.Tap

// NewPasswordTap returns a tap in front of next.
func NewPasswordTap(next http.Handler) *PasswordTap {
	return secrettap.NewJSON(next, "rescue", "password")
}
