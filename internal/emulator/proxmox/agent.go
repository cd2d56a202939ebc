package proxmox

import (
	"fmt"
	"net/http"
)

// AgentFault is what a guest agent does instead of answering.
type AgentFault string

const (
	// AgentAnswers clears a fault.
	AgentAnswers AgentFault = ""
	// AgentHangs holds every agent request until its client leaves, as
	// an agent that took the command and died does.
	AgentHangs AgentFault = "hang"
	// AgentNotRunning answers PVE's "QEMU guest agent is not running".
	AgentNotRunning AgentFault = "not_running"
)

// agentFault is the fault by VMID; 0 is every VM's.
type agentFault map[int]AgentFault

// SetAgentFault makes the agent of vmid (0: every VM) fail as f says.
func (e *Emulator) SetAgentFault(vmid int, f AgentFault) error {
	switch f {
	case AgentAnswers, AgentHangs, AgentNotRunning:
	default:
		return fmt.Errorf("proxmox emulator: no agent fault %q (hang, not_running or \"\")", f)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.agent == nil {
		e.agent = agentFault{}
	}
	if f == AgentAnswers {
		delete(e.agent, vmid)
	} else {
		e.agent[vmid] = f
	}
	return nil
}

// agentInterfaces is GET …/agent/network-get-interfaces: lo and eth0 with
// a documentation-range address unique to the VM, once BootDuration has
// passed since the start.
func (e *Emulator) agentInterfaces(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	v, err := e.vmLocked(r.PathValue("node"), r.PathValue("vmid"))
	var fault AgentFault
	if err == nil {
		fault = e.agent[v.vmid]
		if fault == "" {
			fault = e.agent[0]
		}
		switch {
		case v.status != "running":
			err = failf(http.StatusInternalServerError, "VM %d is not running", v.vmid)
		case !v.agentConfigured():
			err = failf(http.StatusInternalServerError, "No QEMU guest agent configured")
		case fault == AgentNotRunning || e.clock.Now().Sub(v.startedAt) < e.opts.BootDuration:
			err = failf(http.StatusInternalServerError, "QEMU guest agent is not running")
		}
	}
	var ip int
	if v != nil {
		ip = v.ip
	}
	e.mu.Unlock()
	if err != nil {
		writeError(w, err)
		return
	}
	if fault == AgentHangs {
		select {
		case <-r.Context().Done():
		case <-e.stopped:
		}
		return
	}
	writeData(w, map[string]any{"result": guestInterfaces(ip)})
}

func guestInterfaces(ip int) []map[string]any {
	addr := func(a, typ string, prefix int) map[string]any {
		return map[string]any{"ip-address": a, "ip-address-type": typ, "prefix": prefix}
	}
	stats := map[string]any{"rx-bytes": 0, "rx-dropped": 0, "rx-errs": 0, "rx-packets": 0, "tx-bytes": 0, "tx-dropped": 0, "tx-errs": 0, "tx-packets": 0}
	return []map[string]any{
		{"name": "lo", "hardware-address": "00:00:00:00:00:00", "statistics": stats, "ip-addresses": []map[string]any{
			addr("127.0.0.1", "ipv4", 8), addr("::1", "ipv6", 128),
		}},
		{"name": "eth0", "hardware-address": fmt.Sprintf("bc:24:11:00:%02x:%02x", (ip>>8)&0xff, ip&0xff), "statistics": stats, "ip-addresses": []map[string]any{
			addr(fmt.Sprintf("192.0.2.%d", 1+(ip-1)%254), "ipv4", 24),
			addr(fmt.Sprintf("2001:db8::%x", ip), "ipv6", 64),
			addr(fmt.Sprintf("fe80::be24:11ff:fe00:%x", ip), "ipv6", 64),
		}},
	}
}
