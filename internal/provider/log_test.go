package provider

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestTFLogLogger: adapter lines land in the kind's subsystem, the
// contract's in the provider's own logger, each with its fields, and
// whatever secret reached a field or a message anyway is masked.
func TestTFLogLogger(t *testing.T) {
	const secret = "SENTINEL-resolved-token-77"
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	seen := &secretValues{}
	secrets := noting{inner: adapter.SecretResolver{Provider: map[string]string{"t": secret}}, seen: seen}
	if _, err := secrets.Resolve(ctx, "provider://t"); err != nil {
		t.Fatal(err)
	}
	root := tflogLogger{secrets: seen}
	hc := adapter.LoggerFor(root, "hcloud")
	hc.Debug(ctx, "API request", map[string]any{"method": "GET", "route": "/servers/{id}", "status": 200})
	hc.Debug(ctx, "leak "+secret, map[string]any{"route": "/x " + secret, "authorization": "Bearer abc123def", "note": "bearer abc123def", "token": "plain-9f8e7d6c"})
	root.Info(ctx, "still waiting", map[string]any{"what": "machine 42 to be running", "last_state": "pending (raw: initializing)", "password": "plain-root-42a"})

	lines, err := tflogtest.MultilineJSONDecode(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), out.String())
	}
	if lines[0]["@module"] != "provider.hcloud" || lines[0]["route"] != "/servers/{id}" || lines[0]["@level"] != "debug" {
		t.Errorf("the request line is not in the hcloud subsystem with its fields: %v", lines[0])
	}
	if lines[2]["@module"] != "provider" || lines[2]["@level"] != "info" || lines[2]["last_state"] != "pending (raw: initializing)" {
		t.Errorf("the wait line is not the provider's own at INFO: %v", lines[2])
	}
	text := strings.Join(func() []string {
		var s []string
		for _, l := range lines {
			for k, v := range l {
				s = append(s, k+"="+toString(v))
			}
		}
		return s
	}(), "\n")
	// The token and password fields' values are masked for their keys
	// alone: they are neither resolved secrets nor headers.
	for _, leak := range []string{secret, "abc123def", "plain-9f8e7d6c", "plain-root-42a"} {
		if strings.Contains(text, leak) {
			t.Errorf("the log shows %q:\n%s", leak, text)
		}
	}
	if !strings.Contains(text, "***") {
		t.Errorf("nothing was masked, so the check proves nothing:\n%s", text)
	}
}

// TestTFLogLoggerLevelPerKind: TF_LOG_PROVIDER_COMPUTE_<KIND> sets one
// adapter's level apart from the provider's.
func TestTFLogLoggerLevelPerKind(t *testing.T) {
	t.Setenv("TF_LOG_PROVIDER_COMPUTE_HCLOUD", "INFO")
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	root := tflogLogger{secrets: &secretValues{}}
	adapter.LoggerFor(root, "hcloud").Debug(ctx, "API request", map[string]any{"method": "GET"})
	root.Debug(ctx, "retrying", map[string]any{"what": "x"})
	lines, err := tflogtest.MultilineJSONDecode(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || lines[0]["@message"] != "retrying" {
		t.Fatalf("want only the provider's DEBUG line with hcloud at INFO, got %v", lines)
	}
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}
