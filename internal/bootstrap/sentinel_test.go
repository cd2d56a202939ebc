package bootstrap_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

const (
	sentinelContent = "SENTINEL-content-wo-4f2a9c"
	sentinelSecret  = "SENTINEL-file-secret-77be01"
)

// TestFileContentsNeverLeak: a content_wo value and what a file's secret
// reference resolves to reach the machine, and appear nowhere in the plan
// JSON, the state, or the TRACE log of Terraform and the provider.
func TestFileContentsNeverLeak(t *testing.T) {
	dir := t.TempDir()
	content := filepath.Join(dir, "content")
	if err := os.WriteFile(content, []byte(sentinelContent), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("METAL_FILE_SECRET", sentinelSecret)
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(dir, "%s.log"))
	mt := newMetal()
	files := fmt.Sprintf(`files = [
    { path = "/etc/app/token", secret = "env://METAL_FILE_SECRET" },
    { path = "/etc/app/key", mode = "0400", content_wo = file(%q), content_wo_version = 1 },
  ]`, content)
	config := hostConfig(`machine_id = "101"`, files, firstBoot)
	var seen []string
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: metalServer(mt),
		CheckDestroy:             released(mt, "101"),
		Steps: []resource.TestStep{
			{
				Config:            config,
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{planText{&seen}}},
				ConfigStateChecks: []statecheck.StateCheck{stateText{&seen}},
			},
			{
				// A new version replaces the host, which installs the new
				// content; the plan says so without showing it.
				Config: strings.Replace(config, "content_wo_version = 1", "content_wo_version = 2", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					planText{&seen}, plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{stateText{&seen}},
				Check:             installs(mt, 2),
			},
		},
	})
	mt.mu.Lock()
	delivered := map[string]string{}
	for k, v := range mt.delivered {
		delivered[k] = v
	}
	mt.mu.Unlock()
	if delivered["/etc/app/key"] != sentinelContent || delivered["/etc/app/token"] != sentinelSecret {
		t.Fatalf("the machine did not receive the files (%d of 2), so the check would prove nothing", len(delivered))
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	var log strings.Builder
	for _, p := range logs {
		b, _ := os.ReadFile(p)
		log.Write(b)
	}
	for _, want := range []string{"bootstrap phase", "tf_rpc=ApplyResourceChange", "content_wo"} {
		if !strings.Contains(log.String(), want) {
			t.Fatalf("the TRACE log (%d bytes) holds no %q, so the check would prove nothing", log.Len(), want)
		}
	}
	if len(seen) < 4 {
		t.Fatalf("only %d plans and states were looked at", len(seen))
	}
	places := slices.Concat(seen, []string{log.String()})
	for i, text := range places {
		for _, s := range []string{sentinelContent, sentinelSecret} {
			if j := strings.Index(text, s); j >= 0 {
				t.Errorf("place %d of %d holds %q: …%s…", i, len(places), s, text[max(0, j-200):min(len(text), j+50)])
			}
		}
	}
}

// planText keeps the plan's JSON.
type planText struct{ into *[]string }

func (p planText) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	b, err := json.Marshal(req.Plan)
	resp.Error = err
	*p.into = append(*p.into, string(b))
}

// stateText keeps the state's JSON.
type stateText struct{ into *[]string }

func (s stateText) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	b, err := json.Marshal(req.State)
	resp.Error = err
	*s.into = append(*s.into, string(b))
}
