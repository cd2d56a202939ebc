package proxmox

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
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
	if err := a.c.Get(ctx, "/nodes/{node}/qemu/{vmid}/config", &c, node, strconv.Itoa(vmid)); err != nil {
		return nil, err
	}
	return c, nil
}

// setConfig is a config write (POST: synchronous on PVE for these keys).
func (a *account) setConfig(ctx context.Context, node string, vmid int, form map[string][]string) error {
	return a.c.Post(ctx, "/nodes/{node}/qemu/{vmid}/config", form, nil, node, strconv.Itoa(vmid))
}

// propertyString reads one of PVE's property strings: "key=value" parts
// and at most one bare part, the value of the format's default key, which
// may stand anywhere ("1,fstrim_cloned_disks=1" and "type=virtio,1" are
// both agent: enabled=1), and empty parts skipped ("file=local-lvm:
// cloudinit," as bpg writes it). PVE prints drives with the default key
// first, but a config written by hand or by another tool need not.
func propertyString(s, defaultKey string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		if k, v, ok := strings.Cut(part, "="); ok {
			out[k] = v
		} else if defaultKey != "" {
			out[defaultKey] = part
		}
	}
	return out
}

// drive reads a drive entry, whose default key is file.
func (c vmConfig) drive(key string) map[string]string { return propertyString(c[key], "file") }

// bootDisk is the disk the VM boots from: the first disk of boot's order,
// else the first of scsi0, virtio0, sata0, ide0 the config has.
func (c vmConfig) bootDisk() string {
	if order := propertyString(c["boot"], "legacy")["order"]; order != "" {
		for _, d := range strings.Split(order, ";") {
			if _, has := c[d]; has && c.drive(d)["media"] != "cdrom" && !cloudInitVolume.MatchString(c.drive(d)["file"]) {
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

// diskGiB is the size of a disk entry in GiB, 0 when unknown: PVE writes
// size=NG, N in K, M or T, or a bare number of bytes.
func (c vmConfig) diskGiB(disk string) float64 {
	v := c.drive(disk)["size"]
	if v == "" {
		return 0
	}
	unit := map[byte]float64{'K': 1.0 / (1 << 20), 'M': 1.0 / 1024, 'G': 1, 'T': 1024}
	scale, ok := unit[v[len(v)-1]]
	if ok {
		v = v[:len(v)-1]
	} else {
		scale = 1.0 / (1 << 30)
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0
	}
	return n * scale
}

// cloudInitVolume is a cloud-init volume as PVE names it: vm-VMID-
// cloudinit (with a format's suffix on file storages), or STORAGE:cloudinit
// as written before PVE allocated it.
var cloudInitVolume = regexp.MustCompile(`(^|[:/])(vm-\d+-cloudinit(\.[a-z0-9]+)?|cloudinit)$`)

// hasCloudInit reports whether a drive of the config is a cloud-init drive.
func (c vmConfig) hasCloudInit() bool {
	for k := range c {
		if (strings.HasPrefix(k, "ide") || strings.HasPrefix(k, "scsi") || strings.HasPrefix(k, "sata")) && cloudInitVolume.MatchString(c.drive(k)["file"]) {
			return true
		}
	}
	return false
}

// agentEnabled reports the guest agent channel on: agent is PVE's property
// string whose default key is enabled ("1", "enabled=1,type=virtio",
// "fstrim_cloned_disks=1,1"), booleans also as yes/on/true.
func (c vmConfig) agentEnabled() bool {
	switch strings.ToLower(propertyString(c["agent"], "enabled")["enabled"]) {
	case "1", "yes", "on", "true":
		return true
	}
	return false
}

// mark is the mark the config's description carries, in Text.Read's order:
// whether it is managed, the mark, and the user's own text.
func (c vmConfig) mark() (bool, adapter.Mark, string) { return descMark.Read(c["description"]) }
