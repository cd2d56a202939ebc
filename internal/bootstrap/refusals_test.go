package bootstrap_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestPlanRefusals: every value that would break an installer, a shell
// line or a unit file, every impossible choice of machine, and an account
// whose adapter cannot bootstrap is refused at plan, on its attribute, with
// the way out, before anything is claimed.
func TestPlanRefusals(t *testing.T) {
	t.Parallel()
	mt := newMetal()
	file := func(lines ...string) string {
		return "files = [{\n    " + strings.Join(lines, "\n    ") + "\n  }]"
	}
	step := func(config, pattern string) resource.TestStep {
		return resource.TestStep{Config: config, PlanOnly: true, ExpectError: acctest.Match(pattern)}
	}
	byID := `machine_id = "101"`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: metalServer(mt),
		Steps: []resource.TestStep{
			step(strings.Replace(hostConfig(byID), "metal_test", "plain_test", 1),
				`account "metal" \(plain_test at [^)]+\) is a plain_test account, and its adapter cannot bootstrap hosts.*Use a compute_provider_account of a kind that can bootstrap. Accounts that can: .metal_test.`),
			step(hostConfig(byID, `offer_id = "ax41"`), `machine_id = "101" and offer_id = "ax41" are both set.*Remove offer_id`),
			step(hostConfig(), `Neither machine_id nor offer_id is set.*Set machine_id`),
			step(strings.Replace(hostConfig(byID), `"db-1"`, `"db 1"`, 1), `hostname: hostname "db 1" is not a host name`),
			step(strings.Replace(hostConfig(byID), `"Ubuntu-2404-noble-amd64-base"`, `"Ubuntu'24"`, 1), `image: image "Ubuntu'24" is not an image name`),
			step(hostConfig(byID, file(`path = "etc/app/token"`, `secret = "env://APP_TOKEN"`)), `files\[0\].path: path "etc/app/token" is relative: write the absolute path`),
			step(hostConfig(byID, file(`path = "/etc/app/$HOME"`, `secret = "env://APP_TOKEN"`)), `files\[0\].path: path "/etc/app/\$HOME" holds a character`),
			step(hostConfig(byID, file(`path = "/etc/app/token"`, `secret = "env://APP_TOKEN"`, `content_wo = "x"`)), `File "/etc/app/token" sets both secret and content_wo`),
			step(hostConfig(byID, file(`path = "/etc/app/token"`)), `File "/etc/app/token" has no content`),
			step(hostConfig(byID, file(`path = "/etc/app/token"`, `secret = "s3cr3t-value"`)), `secret of file "/etc/app/token": the value is not a secret reference \(the value is not shown`),
			step(hostConfig(byID, strings.Replace(firstBoot, "https://dl.example/agent", "http://dl.example/agent?token=abc", 1)),
				`first_boot.url: url "http://dl.example/…" is not https`),
			step(hostConfig(byID, strings.Replace(firstBoot, "0000000000", "zz", 1)), `first_boot.sha256: sha256 "zz0+" is not a SHA-256 digest: write its 64 hex digits in lower case`),
			step(hostConfig(byID, strings.Replace(firstBoot, `"--serve"`, `"--name=%H"`, 1)), `first_boot.command\[1\]: command word "--name=%H" holds`),
			step(hostConfig(byID, strings.Replace(firstBoot, `"/usr/local/bin/agent"`, `"agent"`, 1)), `first_boot.command\[0\]: the first word is the absolute path`),
			step(hostConfig(byID, `ready_command = ["systemctl is-active app"]`), `ready_command\[0\]: command word "systemctl is-active app" holds white space`),
		},
	})
	if s := mt.server("101"); s.Managed {
		t.Errorf("a refused plan claimed machine 101")
	}
}

// TestPlanRefusalsNeverShowTheToken: a URL's query and a pasted secret stay
// out of the refusal. The search is over what the provider sent (each
// diagnostic's summary and detail), not over the CLI's output: Terraform
// 1.15 echoes the configuration line the refused value came from, which is
// the user's own file.
func TestPlanRefusalsNeverShowTheToken(t *testing.T) {
	t.Parallel()
	const sentinel = "SENTINEL-q"
	factories, written := acctest.Record(metalServer(newMetal()))
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{{
			Config:      hostConfig(`machine_id = "101"`, strings.Replace(firstBoot, "https://dl.example/agent", "http://dl.example/agent?token="+sentinel, 1)),
			PlanOnly:    true,
			ExpectError: acctest.Match(`first_boot.url: url "http://dl.example/…" is not https`),
		}},
	})
	refused := false
	for _, d := range written.Diagnostics() {
		text := d.Summary + "\n" + d.Detail
		if strings.Contains(text, sentinel) {
			t.Errorf("the provider's diagnostic shows the URL's query %q:\n%s", sentinel, text)
		}
		refused = refused || strings.Contains(text, "is not https")
	}
	// The refusal itself went through the recorder, so an empty search
	// cannot pass for a clean one.
	if !refused {
		t.Errorf("no diagnostic the provider sent refuses the http URL; it sent %d: %v", len(written.Diagnostics()), acctest.Diagnostics(written.Diagnostics(), tfprotov6.DiagnosticSeverityError))
	}
}
