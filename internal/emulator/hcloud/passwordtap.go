package hcloud

import (
	"encoding/json"
	"net/http"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/secrettap"
)

// PasswordTap keeps every root_password an answer carries (enable_rescue's,
// a create's; see secrettap).
type PasswordTap = secrettap.Tap

// NewPasswordTap returns a tap in front of next.
func NewPasswordTap(next http.Handler) *PasswordTap {
	return secrettap.New(next, func(body []byte) string {
		var out struct {
			RootPassword *string `json:"root_password"`
		}
		if json.Unmarshal(body, &out) != nil || out.RootPassword == nil {
			return ""
		}
		return *out.RootPassword
	})
}
