package examples_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// The guides (templates/guides) show configuration only through files under
// examples/guides/GUIDE/, each included with {{ tffile }} and run by
// TestGuideExamples as its guideCase says, or through an example of a
// resource or data source that a test of its own runs (exercisedExamples):
// the fleet the importing guide adopts is the compute_machines example, and
// TestMachinesExample runs the guide's flow on it (the account applied
// first, one apply importing over for_each, an empty plan after it). A file without a case fails
// TestGuideExamplesAreExercised, and a guide that writes a configuration
// inline fails TestGuidesIncludeOnlyTestedConfiguration, so no guide shows
// a configuration that was not planned against the emulators.
const guidesDir = "guides"

// guideCase is how one guide example is run. The default is a plan, from an
// empty state, against a fresh standalone emulator.
type guideCase struct {
	// prepare rewrites the file for the test's world; the default points
	// every account at the standalone emulator (pointGuideAtEmulator).
	prepare func(t *testing.T, w *guideWorld, hcl string) string
	// metal runs against acctest.Metal, a dedicated-server world with one
	// free server, instead of the standalone emulator.
	metal bool
	// setup runs before the configuration, e.g. to create machines outside
	// Terraform.
	setup func(t *testing.T, w *guideWorld)
	// apply applies the configuration (then plans it again, which must be
	// empty, and destroys it) instead of only planning it.
	apply bool
	vars  config.Variables
	// plan is checked against the plan (of the apply, when apply is set).
	plan []plancheck.PlanCheck
	// state is checked after the apply.
	state []statecheck.StateCheck
}

// guideWorld is what a guide example runs against.
type guideWorld struct {
	e *emulator
	m *acctest.Metal
	// server is the number of metal's free server.
	server int
	// vars are values setup found, substituted for ${NAME} in prepare.
	values map[string]string
}

// TestGuideExamplesAreExercised fails on a file under examples/guides that
// no case runs, and on a case whose file is gone.
func TestGuideExamplesAreExercised(t *testing.T) {
	files := guideFiles(t)
	for _, f := range files {
		_, tf := guideCases[f]
		_, rc := guideCLIConfigs[f]
		if !tf && !rc {
			t.Errorf("%s has no case in guideCases or guideCLIConfigs; add one that plans it against the emulators", f)
		}
	}
	for f := range guideCases {
		if !slices.Contains(files, f) {
			t.Errorf("guideCases names %s, which does not exist", f)
		}
	}
	for f := range guideCLIConfigs {
		if !slices.Contains(files, f) {
			t.Errorf("guideCLIConfigs names %s, which does not exist", f)
		}
	}
}

// TestGuideExamples runs every guide example as its case says.
func TestGuideExamples(t *testing.T) {
	t.Parallel()
	names := make([]string, 0, len(guideCases))
	for f := range guideCases {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		c := guideCases[f]
		t.Run(strings.TrimSuffix(strings.TrimPrefix(f, guidesDir+"/"), ".tf"), func(t *testing.T) {
			t.Parallel()
			runGuideCase(t, f, c)
		})
	}
}

func runGuideCase(t *testing.T, file string, c guideCase) {
	w := &guideWorld{values: map[string]string{}}
	factories := providers()
	if c.metal {
		w.m = acctest.NewMetal(t)
		w.server, _ = w.m.AddServer(t, "")
		factories = acctest.Factories()
	} else {
		w.e = startEmulator(t)
	}
	if c.setup != nil {
		c.setup(t, w)
	}
	prepare := c.prepare
	if prepare == nil {
		prepare = func(t *testing.T, w *guideWorld, hcl string) string { return pointGuideAtEmulator(t, hcl, w.e) }
	}
	hcl := prepare(t, w, readExample(t, file))
	for k, v := range w.values {
		hcl = strings.ReplaceAll(hcl, "${"+k+"}", v)
	}

	var steps []resource.TestStep
	if c.apply {
		steps = append(steps, resource.TestStep{
			Config:            hcl,
			ConfigVariables:   c.vars,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: c.plan},
			ConfigStateChecks: c.state,
		})
	} else {
		steps = append(steps, resource.TestStep{
			Config:             hcl,
			ConfigVariables:    c.vars,
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
			ConfigPlanChecks:   resource.ConfigPlanChecks{PostApplyPostRefresh: c.plan},
		})
	}
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: factories, Steps: steps})
}

// guideFiles lists the files under examples/guides, relative to examples/.
func guideFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(guidesDir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == ".terraform":
			return filepath.SkipDir
		case !d.IsDir():
			files = append(files, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	// A fenced block of configuration, in any of the languages the docs
	// could highlight it as.
	inlineConfigFence = regexp.MustCompile("(?m)^[ \t]*```[ \t]*(hcl|terraform|tf|tofu|opentofu)[ \t]*$")
	// Any fence, for a configuration written in an untyped or text block.
	anyFence = regexp.MustCompile("(?ms)^[ \t]*```[a-z]*[ \t]*\n(.*?)^[ \t]*```")
	// A line that starts a top-level configuration block.
	configLine = regexp.MustCompile(`(?m)^[ \t]*(resource|data|provider|variable|module|output|ephemeral) "[^"]+"( "[^"]+")? \{|^[ \t]*(terraform|import|locals|removed|moved|provider_installation) \{`)
	// {{ tffile "PATH" }} and {{ codefile "LANG" "PATH" }}.
	includedFile = regexp.MustCompile(`\{\{-?\s*(?:tffile|codefile\s+"[^"]*")\s+"([^"]+)"\s*-?\}\}`)
)

// TestGuidesIncludeOnlyTestedConfiguration reads every guide template and
// fails on a configuration written inline instead of included from a file,
// on an included file that no test here runs, and on a file under
// examples/guides that no guide includes.
func TestGuidesIncludeOnlyTestedConfiguration(t *testing.T) {
	templates, err := filepath.Glob("../templates/guides/*.tmpl")
	if err != nil || len(templates) == 0 {
		t.Fatalf("no guide templates under ../templates/guides (%v)", err)
	}
	included := map[string]bool{}
	defer func() {
		for _, f := range guideFiles(t) {
			if !included[f] {
				t.Errorf("examples/%s is in no guide; include it in one under templates/guides/, or delete it", f)
			}
		}
	}()
	for _, tmpl := range templates {
		b, err := os.ReadFile(tmpl)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		name := filepath.Base(tmpl)
		for _, m := range inlineConfigFence.FindAllStringSubmatchIndex(text, -1) {
			t.Errorf("%s:%d: an inline %s block; put the configuration in a file under examples/guides/ and include it with {{ tffile \"examples/guides/...\" }}, so a test plans it",
				name, lineOf(text, m[0]), text[m[2]:m[3]])
		}
		for _, m := range anyFence.FindAllStringSubmatchIndex(text, -1) {
			if l := configLine.FindString(text[m[2]:m[3]]); l != "" && !inlineConfigFence.MatchString(text[m[0]:m[2]]) {
				t.Errorf("%s:%d: a fenced block holds configuration (%q); include it from a file under examples/guides/ with {{ tffile }}", name, lineOf(text, m[0]), strings.TrimSpace(l))
			}
		}
		for _, m := range includedFile.FindAllStringSubmatch(text, -1) {
			rel, ok := strings.CutPrefix(m[1], "examples/")
			included[rel] = true
			_, tf := guideCases[rel]
			_, rc := guideCLIConfigs[rel]
			if !ok || !(tf || rc || exercisedExamples[rel]) {
				t.Errorf("%s includes %s, which no test in examples/ runs; include a file under examples/guides/ and give it a case in guideCases", name, m[1])
			}
		}
	}
}

func lineOf(text string, offset int) int { return strings.Count(text[:offset], "\n") + 1 }

// pointGuideAtEmulator points every account of a guide example at the
// standalone emulator: Hetzner Cloud and Proxmox VE as pointAtEmulator does,
// Hetzner Robot by adding the emulator's endpoint.
func pointGuideAtEmulator(t *testing.T, hcl string, e *emulator) string {
	t.Helper()
	robot := regexp.MustCompile(`(?m)^([ \t]*)hetzner_robot[ \t]*=[ \t]*\{[ \t]*$`)
	hasRobot := robot.MatchString(hcl)
	hcl = robot.ReplaceAllString(hcl, fmt.Sprintf("${0}\n${1}  endpoint = %q", e.robot))
	if !hasRobot || hetznerCloudBlock.MatchString(hcl) || proxmoxBlock.MatchString(hcl) {
		return pointAtEmulator(t, hcl, e)
	}
	return withSource(hcl)
}

// expectImport checks that a plan imports the resource at addr.
type expectImport struct{ addr string }

func (c expectImport) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address == c.addr {
			if rc.Change == nil || rc.Change.Importing == nil {
				resp.Error = fmt.Errorf("%s is in the plan but not imported", c.addr)
			}
			return
		}
	}
	resp.Error = fmt.Errorf("%s is not in the plan", c.addr)
}

func creates(addrs ...string) []plancheck.PlanCheck {
	var out []plancheck.PlanCheck
	for _, a := range addrs {
		out = append(out, plancheck.ExpectResourceAction(a, plancheck.ResourceActionCreate))
	}
	return out
}
