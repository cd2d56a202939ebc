// Package hcloud is the Hetzner Cloud adapter: it turns the adapter contract
// (internal/adapter) into calls of the Hetzner Cloud API through
// github.com/hetznercloud/hcloud-go/v2, and every error of that API into one
// adapter code through classify. Every request passes a logging layer
// (logging.go) that writes one line per attempt to the account's
// adapter.Logger: route template, status, duration, attempt, request id,
// never a query, header value or body.
//
// It may import the contract, hcloud-go, the standard library and
// internal/adapter/marks (the labels of the mark), never the Terraform
// plugin framework, the REST client nor any other adapter: resources reach it only
// through the contract, and the emulator in internal/emulator/hcloud is used
// by its tests alone.
//
// Machines it creates carry five labels, written in the create call itself:
// compute.seedcompute.io/managed=true, compute.seedcompute.io/key=<key>,
// compute.seedcompute.io/fingerprint=<fingerprint>,
// compute.seedcompute.io/claim=<claim> and, until the claim is confirmed,
// compute.seedcompute.io/unconfirmed=true. The key makes create idempotent, the
// fingerprint decides whether a machine found by key may be adopted, the
// claim names the Terraform state that holds the machine (an adoption
// rewrites it), and a machine without the managed mark is never powered,
// updated or deleted.
package hcloud
