package robot

import (
	"encoding/json"
	"net/http"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/secrettap"
)

// PasswordTap keeps the password of every rescue activation an answer
// carries (see secrettap).
type PasswordTap = secrettap.Tap

// NewPasswordTap returns a tap in front of next.
func NewPasswordTap(next http.Handler) *PasswordTap {
	return secrettap.New(next, func(body []byte) string {
		var out struct {
			Rescue struct {
				Password *string `json:"password"`
			} `json:"rescue"`
		}
		if json.Unmarshal(body, &out) != nil || out.Rescue.Password == nil {
			return ""
		}
		return *out.Rescue.Password
	})
}
