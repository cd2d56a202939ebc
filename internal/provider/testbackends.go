//go:build testbackends

package provider

import "github.com/seedcompute/terraform-provider-compute/internal/adapter/toycloud"

// The backends kept in the tests, registered only in a binary built with
// the testbackends tag (make testacc-emulator; never a release or make
// docs): one line each.
func init() { testBackends = append(testBackends, toycloud.Definition()) }
