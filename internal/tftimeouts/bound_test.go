package tftimeouts

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestBoundAcceptsZeroAndRefusesWhatIsNoWait(t *testing.T) {
	v := Bound(time.Minute)
	for _, bad := range []struct{ value, why string }{{"-1s", "negative"}, {"soon", "not a duration"}, {"5", "not a duration"}} {
		resp := validate(v, types.StringValue(bad.value))
		if !resp.Diagnostics.HasError() {
			t.Errorf("%q accepted", bad.value)
			continue
		}
		d := resp.Diagnostics.Errors()[0]
		for _, want := range []string{`timeouts.read = "` + bad.value + `"`, bad.why, `"0s" not to wait`, "default (1m)"} {
			if !strings.Contains(d.Detail(), want) {
				t.Errorf("%q: detail %q does not say %q", bad.value, d.Detail(), want)
			}
		}
	}
	for _, ok := range []types.String{types.StringValue("0s"), types.StringValue("2s"), types.StringValue("1h"), types.StringNull(), types.StringUnknown()} {
		if resp := validate(v, ok); resp.Diagnostics.HasError() {
			t.Errorf("%s refused: %v", ok, resp.Diagnostics)
		}
	}
}

func TestParseBound(t *testing.T) {
	for _, c := range []struct {
		value string
		known bool
		want  time.Duration
	}{{"0s", true, 0}, {"2s", true, 2 * time.Second}, {"", false, time.Minute}, {"-1s", true, time.Minute}, {"x", true, time.Minute}} {
		if got := ParseBound(c.value, c.known, time.Minute); got != c.want {
			t.Errorf("ParseBound(%q, %v) = %s, want %s", c.value, c.known, got, c.want)
		}
	}
}
