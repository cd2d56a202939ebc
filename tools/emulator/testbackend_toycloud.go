//go:build testbackends

package main

import "github.com/seedcompute/terraform-provider-compute/internal/emulator/toycloud"

// A backend kept in the tests (CONTRIBUTING.md, "Adding a backend"),
// served only by a command built with the testbackends tag (make emulator,
// make demo, make testacc-emulator). Each backend kept in the tests has a
// file of its own like this one, differing only in the package it names,
// so that two of them added apart never edit the same line.
func init() { registered = append(registered, toycloud.Standalone) }
