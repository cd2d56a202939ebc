// Command emulator serves the in-memory API emulators on one loopback port,
// for the quick start and for trying the provider without an account.
//
//	go run ./tools/emulator [-listen 127.0.0.1:0] [-latency 50ms] [-token demo-token] [-read-only-token TOKEN]
//	                        [-action-duration 10s] [-action-polls 1]
//	                        [-robot-user demo-user] [-robot-password demo-password] [-robot-servers 2] [-robot-ssh-port 0]
//	                        [-robot-ssh-key-out FILE] [-robot-boot-duration 50ms] [-robot-install-duration 200ms]
//	                        [-proxmox-token 'root@pam!demo=SECRET'] [-proxmox-ssh-port 0] [-proxmox-ssh-key-out FILE]
//	                        [-proxmox-clone-duration 200ms]
//
// It prints one line per API, "NAME URL" (e.g. "hcloud
// http://127.0.0.1:43123/v1", "robot http://127.0.0.1:43123/robot"),
// "robot-ssh PORT", the port the Robot servers' SSH answers on,
// "robot-ssh-key FINGERPRINT FILE", the Robot account's SSH key,
// "proxmox URL FINGERPRINT" (Proxmox VE over https on a port of its own,
// with its certificate's fingerprint), "proxmox-token TOKEN",
// "proxmox-ssh PORT", "proxmox-ssh-key FINGERPRINT FILE" and
// "proxmox-ssh-hostkeys PIN,PIN" (the nodes' SFTP for snippets), for each
// emulator registered beside the shipped ones (registered.go) "NAME URL"
// and "NAME-testacc VAR=VALUE ...", and last "first-boot URL SHA256", a
// demo first-boot binary on an https server only the servers trust, then
// serves until SIGINT or SIGTERM: all a bootstrap needs, on loopback. The control API (/_emulator/stats,
// /_emulator/faults, /_emulator/actions, /_emulator/robot/...,
// /_emulator/proxmox/..., /_emulator/ssh/...; -h lists what each takes) is on the same port. It
// imports the emulators only, never the provider.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop() // before os.Exit, which runs no deferred call
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "emulator:", err)
		os.Exit(1)
	}
}
