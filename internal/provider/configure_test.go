package provider

import (
	"bytes"
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// TestConfigureLogsTheBuild: configuring the provider writes one INFO line
// with the version and commit the binary was built with (what main gets
// from the release's ldflags) and the Terraform version, in the message and
// as fields, so a user's log names the build it came from.
func TestConfigureLogsTheBuild(t *testing.T) {
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	p := New("1.2.3", WithCommit("0123abc"))().(*computeProvider)
	var schema provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &schema)
	raw := tftypes.NewValue(schema.Schema.Type().TerraformType(ctx), map[string]tftypes.Value{
		"secrets": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, nil),
	})
	var resp provider.ConfigureResponse
	p.Configure(ctx, provider.ConfigureRequest{
		TerraformVersion: "1.11.4",
		Config:           tfsdk.Config{Schema: schema.Schema, Raw: raw},
	}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("configure failed: %v", resp.Diagnostics)
	}
	lines, err := tflogtest.MultilineJSONDecode(&out)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if l["@level"] == "info" && l["version"] == "1.2.3" && l["commit"] == "0123abc" && l["terraform_version"] == "1.11.4" &&
			l["@message"] == "configuring the compute provider 1.2.3 (commit 0123abc) for Terraform 1.11.4" {
			return
		}
	}
	t.Fatalf("no INFO line says and carries version 1.2.3, commit 0123abc and terraform_version 1.11.4:\n%s", out.String())
}
