package hcloud_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

const testToken = "test-token"

// start runs an emulator on loopback and returns it with an unmodified
// hcloud-go client pointed at it. The client polls every millisecond and
// does not retry, so tests see every answer the emulator gives.
func start(t *testing.T, opts emulator.Options) (*emulator.Emulator, *hcloud.Client, string) {
	t.Helper()
	if opts.Token == "" {
		opts.Token = testToken
	}
	e, endpoint, stop, err := emulator.NewServer(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return e, newClient(endpoint, opts.Token), endpoint
}

func newClient(endpoint, token string) *hcloud.Client {
	return hcloud.NewClient(
		hcloud.WithEndpoint(endpoint),
		hcloud.WithToken(token),
		hcloud.WithPollOpts(hcloud.PollOpts{BackoffFunc: hcloud.ConstantBackoff(time.Millisecond)}),
		hcloud.WithRetryOpts(hcloud.RetryOpts{BackoffFunc: hcloud.ConstantBackoff(time.Millisecond), MaxRetries: 0}),
	)
}

func ctx(t *testing.T) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// create makes a server through the client and waits for its actions.
func create(t *testing.T, c *hcloud.Client, name string, labels map[string]string) *hcloud.Server {
	t.Helper()
	res, _, err := c.Server.Create(ctx(t), hcloud.ServerCreateOpts{
		Name:       name,
		ServerType: &hcloud.ServerType{Name: "cx22"},
		Image:      &hcloud.Image{Name: "ubuntu-24.04"},
		Location:   &hcloud.Location{Name: "nbg1"},
		Labels:     labels,
	})
	if err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	if err := c.Action.WaitFor(ctx(t), append([]*hcloud.Action{res.Action}, res.NextActions...)...); err != nil {
		t.Fatalf("wait for %s: %v", name, err)
	}
	return res.Server
}

func asActionError(err error, target *hcloud.ActionError) bool {
	return errors.As(err, target)
}
