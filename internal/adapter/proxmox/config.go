package proxmox

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// vmConfig is GET /nodes/{node}/qemu/{vmid}/config, every key as text.
type vmConfig map[string]string

func (c *vmConfig) UnmarshalJSON(b []byte) error {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*c = vmConfig{}
	for k, v := range raw {
		switch v := v.(type) {
		case string:
			(*c)[k] = v
		case float64:
			(*c)[k] = strconv.FormatFloat(v, 'f', -1, 64)
		default:
			(*c)[k] = fmt.Sprint(v)
		}
	}
	return nil
}

func (a *account) config(ctx context.Context, node string, vmid int) (vmConfig, error) {
	var c vmConfig
	if err := a.c.get(ctx, "/nodes/{node}/qemu/{vmid}/config", &c, node, strconv.Itoa(vmid)); err != nil {
		return nil, err
	}
	return c, nil
}

// setConfig is a config write (POST: synchronous on PVE for these keys).
func (a *account) setConfig(ctx context.Context, node string, vmid int, form map[string][]string) error {
	return a.c.post(ctx, "/nodes/{node}/qemu/{vmid}/config", form, nil, node, strconv.Itoa(vmid))
}

// bootDisk is the disk the VM boots from: the first disk of boot's order,
// else the first of scsi0, virtio0, sata0, ide0 the config has.
func (c vmConfig) bootDisk() string {
	if order, ok := strings.CutPrefix(c["boot"], "order="); ok {
		for _, d := range strings.Split(order, ";") {
			if _, has := c[d]; has && !strings.Contains(c[d], "media=cdrom") && !strings.Contains(c[d], "cloudinit") {
				return d
			}
		}
	}
	for _, d := range []string{"scsi0", "virtio0", "sata0", "ide0"} {
		if _, has := c[d]; has {
			return d
		}
	}
	return ""
}

// diskGiB is the size=NG of a disk entry, 0 when unknown (a size in M or T
// is converted).
func (c vmConfig) diskGiB(disk string) float64 {
	for _, part := range strings.Split(c[disk], ",") {
		v, ok := strings.CutPrefix(part, "size=")
		if !ok || v == "" {
			continue
		}
		n, err := strconv.ParseFloat(v[:len(v)-1], 64)
		if err != nil {
			return 0
		}
		switch v[len(v)-1] {
		case 'T':
			return n * 1024
		case 'G':
			return n
		case 'M':
			return n / 1024
		case 'K':
			return n / 1024 / 1024
		}
	}
	return 0
}

// hasCloudInit reports whether a drive of the config is a cloud-init drive.
func (c vmConfig) hasCloudInit() bool {
	for k, v := range c {
		if (strings.HasPrefix(k, "ide") || strings.HasPrefix(k, "scsi") || strings.HasPrefix(k, "sata")) && strings.Contains(v, "cloudinit") {
			return true
		}
	}
	return false
}

// agentEnabled reports the guest agent channel on: agent is "1",
// "1,fstrim_cloned_disks=1" or "enabled=1,…" (PVE's property string,
// whose default key is enabled; booleans also as yes/on/true).
func (c vmConfig) agentEnabled() bool {
	for i, part := range strings.Split(c["agent"], ",") {
		v, named := strings.CutPrefix(part, "enabled=")
		if named || i == 0 && !strings.Contains(part, "=") {
			switch strings.ToLower(v) {
			case "1", "yes", "on", "true":
				return true
			}
			return false
		}
	}
	return false
}

// mark is the mark the config's description carries.
func (c vmConfig) mark() (adapter.Mark, bool, string) { return parseMark(c["description"]) }
