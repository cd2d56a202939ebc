//go:build testbackends

package main

import "github.com/seedcompute/terraform-provider-compute/internal/emulator/toycloud"

// The backends kept in the tests, served only by a command built with the
// testbackends tag (make emulator, make demo, make testacc-emulator): one
// line each.
func init() { registered = append(registered, toycloud.Standalone) }
