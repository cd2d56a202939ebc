package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/sshhost"
)

type config struct {
	listen         string
	latency        time.Duration
	token          string
	readOnlyToken  string
	actionDuration time.Duration
	actionPolls    int
	hcloudKeys     string
	robotUser      string
	robotPassword  string
	robotServers   int
	robotSSHPort   int
	robotSSHKeyOut string
	robotBoot      time.Duration
	robotInstall   time.Duration

	proxmoxToken     string
	proxmoxSSHPort   int
	proxmoxSSHKeyOut string
	proxmoxClone     time.Duration
}

// api is one emulated API on the shared port. mount is its path prefix
// on the port ("" for the root); base is where its API starts below that,
// so the printed URL is the server URL + mount + base. control, when set,
// is a path prefix served by handler unchanged: its control API.
// controlOnly is an emulator that has no API on the port, only its
// control API (the SSH farm: its machines answer on their own addresses).
type api struct {
	name        string
	mount       string
	base        string
	control     string
	controlOnly bool
	handler     http.Handler
}

// emulators is what the command serves: the APIs, the Robot account's SSH
// key, and what stops them.
type emulators struct {
	apis  []api
	key   demoKey
	pve   *pve
	extra []started
	stop  func()
}

// apis lists the emulators the command serves, and returns what stops
// them. The Hetzner Cloud emulator owns the root, so its control API is
// /_emulator/...; the Robot webservice is under /robot, its control API
// under /_emulator/robot/..., and its machines are an SSH farm on a
// loopback /24 of their own, whose control API is /_emulator/ssh/... and
// whose curl fetches with fetch (which trusts the first-boot server).
func apis(cfg config, fetch *http.Client) (emulators, error) {
	farm, err := sshhost.New(sshhost.Options{
		Port: cfg.robotSSHPort, BootDelay: cfg.robotBoot, InstallDuration: cfg.robotInstall, HTTPClient: fetch,
	})
	if err != nil {
		return emulators{}, err
	}
	rb, err := robot.New(robot.Options{User: cfg.robotUser, Password: cfg.robotPassword, Farm: farm, Latency: cfg.latency})
	if err != nil {
		_ = farm.Close()
		return emulators{}, err
	}
	stop := func() {
		rb.Close()
		_ = farm.Close()
	}
	for range cfg.robotServers {
		if _, err := rb.AddServer(robot.ServerSeed{}); err != nil {
			stop()
			return emulators{}, err
		}
	}
	key, err := newDemoKey(rb, cfg.robotUser, cfg.robotPassword, cfg.robotSSHKeyOut)
	if err != nil {
		stop()
		return emulators{}, err
	}
	pv, err := startProxmox(cfg)
	if err != nil {
		stop()
		return emulators{}, err
	}
	stopRobot := stop
	stop = func() {
		pv.stop()
		stopRobot()
	}
	hc := hcloud.New(hcloud.Options{
		Token: cfg.token, ReadOnlyToken: cfg.readOnlyToken, Latency: cfg.latency,
		ActionDuration: cfg.actionDuration, ActionPolls: cfg.actionPolls,
	})
	if err := seedHcloudKeys(hc, cfg.hcloudKeys); err != nil {
		stop()
		return emulators{}, err
	}
	extra, stopExtra, err := startRegistered(cfg)
	if err != nil {
		stop()
		return emulators{}, err
	}
	stopShipped := stop
	stop = func() {
		stopExtra()
		stopShipped()
	}
	return emulators{key: key, pve: pv, extra: extra, stop: stop, apis: []api{
		{name: "hcloud", base: hcloud.BasePath, handler: hc},
		{name: "robot", mount: "/robot", control: robot.ControlPrefix, handler: rb},
		{name: "ssh", controlOnly: true, control: strings.TrimSuffix(sshhost.ControlPrefix, "/"), handler: farm.Handler()},
		{name: "proxmox", controlOnly: true, control: proxmox.ControlPrefix, handler: pv.e},
	}}, nil
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("emulator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	fs.StringVar(&cfg.listen, "listen", "127.0.0.1:0", "loopback `address` to listen on; port 0 picks a free one")
	fs.DurationVar(&cfg.latency, "latency", 0, "delay before every API request reaches the API; a request whose client gives up meanwhile is not served")
	fs.StringVar(&cfg.token, "token", "demo-token", "bearer `token` the Hetzner Cloud API accepts")
	fs.StringVar(&cfg.readOnlyToken, "read-only-token", "", "a second bearer `token` that may only read: every other request is refused with 403 forbidden, as a read-only API token is")
	fs.DurationVar(&cfg.actionDuration, "action-duration", 0, "how long each server action (create, start, stop, delete) runs before it succeeds, in wall time; "+
		"0 ends each after -action-polls polls. 10s shows what a long wait looks like: the provider's INFO line about what it awaits")
	fs.IntVar(&cfg.actionPolls, "action-polls", 1, "how many polls of an action (reads of it or of its server) end it, when -action-duration is 0")
	fs.StringVar(&cfg.hcloudKeys, "hcloud-ssh-keys", defaultHcloudKeys, "comma-separated `names` of the SSH keys the Hetzner Cloud project holds at start, "+
		"which an account's rescue_ssh_keys may name; \"\" for none")
	fs.StringVar(&cfg.robotUser, "robot-user", "demo-user", "the Robot webservice `user` (HTTP Basic)")
	fs.StringVar(&cfg.robotPassword, "robot-password", "demo-password", "the Robot webservice user's `password`")
	fs.IntVar(&cfg.robotServers, "robot-servers", 2, "how many unnamed AX42 servers in FSN1-DC14 the Robot account rents at start")
	fs.IntVar(&cfg.robotSSHPort, "robot-ssh-port", 0, "the `port` every Robot server's SSH answers on, each on its own loopback address; 0 picks a free one (printed as \"robot-ssh PORT\")")
	fs.StringVar(&cfg.robotSSHKeyOut, "robot-ssh-key-out", "", "a `file` to write the private half of the Robot account's SSH key to (OpenSSH PEM, mode 0600), for an account's ssh_private_key; "+
		"the key is made at start and its public half registered under /key (printed as \"robot-ssh-key FINGERPRINT FILE\", FILE - when not written)")
	fs.DurationVar(&cfg.robotBoot, "robot-boot-duration", metal.BootDelay, "how long a Robot server takes to boot into rescue or its installed system (real hardware: minutes)")
	fs.DurationVar(&cfg.robotInstall, "robot-install-duration", sshhost.DefaultInstallDuration, "how long installimage runs on a Robot server (real hardware: ten to twenty minutes)")
	fs.StringVar(&cfg.proxmoxToken, "proxmox-token", defaultProxmoxToken, "the Proxmox VE API `token` accepted, USER@REALM!TOKENID=SECRET (printed as \"proxmox-token TOKEN\", for an account's api_token)")
	fs.IntVar(&cfg.proxmoxSSHPort, "proxmox-ssh-port", 0, "the `port` every Proxmox node's SSH (SFTP for snippets) answers on, each on its own loopback address; 0 picks a free one (printed as \"proxmox-ssh PORT\")")
	fs.StringVar(&cfg.proxmoxSSHKeyOut, "proxmox-ssh-key-out", "", "a `file` to write the private key the Proxmox nodes admit for root to (OpenSSH PEM, mode 0600), for an account's ssh_private_key "+
		"(printed as \"proxmox-ssh-key FINGERPRINT FILE\", FILE - when not written)")
	fs.DurationVar(&cfg.proxmoxClone, "proxmox-clone-duration", defaultProxmoxClone, "how long a Proxmox clone task runs, holding the template's lock (real linked clones: seconds; full clones: minutes)")
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintln(out, "Usage: emulator [flags]")
		fmt.Fprintln(out, "\nServes the emulated Hetzner Cloud API and Robot webservice on one loopback port, and Proxmox VE over https on\n"+
			"another, and prints \"hcloud URL\", \"robot URL\", \"robot-ssh PORT\", \"robot-ssh-key FINGERPRINT FILE\",\n"+
			"\"proxmox URL CERT-FINGERPRINT\", \"proxmox-token TOKEN\", \"proxmox-ssh PORT\", \"proxmox-ssh-key FINGERPRINT FILE\",\n"+
			"\"proxmox-ssh-hostkeys PIN,PIN\", \"NAME URL\" and \"NAME-testacc VAR=VALUE ...\" for each backend registered beside\n"+
			"them (the testbackends build tag registers those kept in the tests), and \"first-boot URL SHA256\" (an https server of a demo first-boot\n"+
			"binary whose CA only the Robot servers trust) once it listens.\n\nFlags:")
		fs.PrintDefaults()
		fmt.Fprint(out, controlHelp)
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if cfg.actionDuration < 0 {
		return cfg, fmt.Errorf("-action-duration %s: want 0 or a positive duration such as 10s", cfg.actionDuration)
	}
	if cfg.robotBoot <= 0 || cfg.robotInstall <= 0 {
		return cfg, fmt.Errorf("-robot-boot-duration %s, -robot-install-duration %s: want positive durations such as 50ms or 2m", cfg.robotBoot, cfg.robotInstall)
	}
	if cfg.proxmoxClone <= 0 {
		return cfg, fmt.Errorf("-proxmox-clone-duration %s: want a positive duration such as 200ms or 30s", cfg.proxmoxClone)
	}
	if cfg.robotServers < 0 {
		return cfg, fmt.Errorf("-robot-servers %d: want 0 or more", cfg.robotServers)
	}
	if cfg.actionPolls < 1 {
		return cfg, fmt.Errorf("-action-polls %d: want 1 or more", cfg.actionPolls)
	}
	return cfg, checkLoopback(cfg.listen)
}

// controlHelp is the control API, which shares the port with the API and
// changes a running emulator; README.md shows it with curl.
const controlHelp = `
Control API (same port, no token; neither counted nor faulted):
  GET    /_emulator/stats     request counts by route, e.g. {"POST /servers": 2}
  DELETE /_emulator/stats     set the counts back to zero
  GET    /_emulator/faults    the faults in force
  POST   /_emulator/faults    add faults: {"rules": [RULE...], "latency": "50ms",
                              "rate_limit": {"limit": 100, "window": "1h"}, "max_page_size": 2}
      RULE: {"method": "POST", "path": "/servers" (or "/servers/{id}", "/servers/*"),
             "count": 1 (0: every call), "skip": 0 (calls let through first), then what it does:
             "status": 503, "code": "unavailable", "message": "..." (answer with that error);
             "drop": true (serve it, then close the connection without an answer);
             "reset": true (close the connection at once: the call is neither served nor answered);
             "delay_if_connected": "5s" (hold it, then serve it only if its client still waits);
             "delay_then_commit": "5s" (hold it, then serve it even if its client has gone);
             "commit_then_delay": "5s" (serve it at once, answer late)}
  DELETE /_emulator/faults    remove every fault, latency, rate limit and page size limit
  GET    /_emulator/actions   how long actions run: {"polls": 1, "duration": "0s"}
  POST   /_emulator/actions   change it, for running actions too (both count from their start): {"duration": "10s"}
  DELETE /_emulator/actions   back to the -action-duration and -action-polls it started with

Robot webservice (HTTP Basic with -robot-user and -robot-password; its control API needs none):
  /_emulator/robot/stats and /_emulator/robot/faults: as /_emulator/stats and /_emulator/faults, for the Robot webservice
  GET    /_emulator/robot/servers   the rented servers: [{"server_number": 2100001, "server_ip": "127.R.S.1", ...}]
  POST   /_emulator/robot/servers   rent one more: {"product": "AX42", "dc": "FSN1-DC14", "name": ""}
  GET    /_emulator/robot/orders    how orders are delivered: {"polls": 0, "duration": "0s"}
  POST   /_emulator/robot/orders    change it for the orders placed from then on: {"polls": 3}, {"duration": "2m"};
                                    {"fail_next": 1} cancels the next order, {"lose_next": 1} drops its answer
  DELETE /_emulator/robot/orders    back to delivery at the first read

Proxmox VE (PVEAPIToken with -proxmox-token on its own https port; its control API needs none):
  /_emulator/proxmox/stats and /_emulator/proxmox/faults: as /_emulator/stats and /_emulator/faults, for the PVE API
  GET    /_emulator/proxmox/vms         every VM and template: [{"vmid": 9000, "node": "pve1", "template": true, "config": {...}}]
  POST   /_emulator/proxmox/vms         make one behind the provider's back: {"Name": "legacy", "Node": "pve1", "Tags": ""}
  GET    /_emulator/proxmox/counters    {"authorized": N, "lock_waits": N, "lock_timeouts": N, "held_clones": N}
  POST   /_emulator/proxmox/clones/hold     clone tasks from now on stay running (VM locked "clone") until released
  POST   /_emulator/proxmox/clones/release  let them finish
  POST   /_emulator/proxmox/agent       {"vmid": 0, "fault": "hang"|"not_running"|""} (vmid 0: every VM)
  POST   /_emulator/proxmox/nodes       {"name": "pve2", "online": false}
  POST   /_emulator/proxmox/locks       {"vmid": 9000, "lock": "backup"} ("" clears it)

SSH farm (the machines behind the Robot servers):
  GET    /_emulator/ssh/machines    each machine: [{"number": 2100001, "booted": "rescue", "installs": 0, "first_boot": [...], ...}]
  GET    /_emulator/ssh/commands    the exec lines received, with their stdin lengths (never stdin) and exits; ?machine=N for one
  GET    /_emulator/ssh/env         the env requests refused (names only); ?machine=N for one
  POST   /_emulator/ssh/machines/{n}/faults   {"fail_install": "reason", "hang_install": true, "ignore_soft_reset": true,
                                    "fail_first_boot": true, "drop_sessions_after": 3, "drop_now": true}
  DELETE /_emulator/ssh/machines/{n}/faults   clear every fault of machine n
`

// checkLoopback refuses any listen address that is not loopback: the
// emulators accept a demo token and must not be reachable from a network.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-listen %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	if host == "" {
		host = "every interface"
	}
	return fmt.Errorf("-listen %q: refusing to listen on %s; use a loopback address such as 127.0.0.1:8080 or [::1]:8080", addr, host)
}

// run serves the emulators until ctx ends. It writes one "NAME URL" line
// per API to stdout once the port is open, so a caller can read the URLs
// before making requests.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	var usage strings.Builder
	cfg, err := parseFlags(args, &usage)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			_, _ = io.WriteString(stdout, usage.String())
		}
		return err
	}
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return err
	}
	files, err := startFileServer()
	if err != nil {
		_ = ln.Close()
		return err
	}
	defer files.Close()
	served, err := apis(cfg, files.client)
	if err != nil {
		_ = ln.Close()
		return err
	}
	defer served.stop()
	mux := http.NewServeMux()
	root := "http://" + ln.Addr().String()
	out := bufio.NewWriter(stdout)
	for _, a := range served.apis {
		if a.control != "" {
			mux.Handle(a.control+"/", a.handler)
		}
		if a.controlOnly {
			continue
		}
		if a.mount == "" {
			mux.Handle("/", a.handler)
		} else {
			mux.Handle(a.mount+"/", http.StripPrefix(a.mount, a.handler))
		}
		fmt.Fprintf(out, "%s %s%s%s\n", a.name, root, a.mount, a.base)
		if rb, ok := a.handler.(*robot.Emulator); ok {
			keyFile := served.key.path
			if keyFile == "" {
				keyFile = "-"
			}
			fmt.Fprintf(out, "robot-ssh %d\nrobot-ssh-key %s %s\n", rb.SSHPort(), served.key.fingerprint, keyFile)
		}
	}
	served.pve.announce(out)
	for _, e := range served.extra {
		e.serve(mux, root, out)
	}
	fmt.Fprintf(out, "first-boot %s %s\n", files.url, files.sha256)
	if err := out.Flush(); err != nil {
		_ = ln.Close()
		return err
	}

	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	serving := make(chan error, 1)
	go func() { serving <- srv.Serve(ln) }()
	select {
	case err := <-serving:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-serving; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
