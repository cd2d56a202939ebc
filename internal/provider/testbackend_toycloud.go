//go:build testbackends

package provider

import "github.com/seedcompute/terraform-provider-compute/internal/adapter/toycloud"

// A backend kept in the tests (CONTRIBUTING.md, "Adding a backend"),
// registered only in a binary built with the testbackends tag (make
// testacc-emulator; never a release or make docs). Each backend kept in
// the tests has a file of its own like this one, differing only in the
// package it names, so that two of them added apart never edit the same
// line.
func init() { testBackends = append(testBackends, toycloud.Definition()) }
