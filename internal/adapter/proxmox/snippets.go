package proxmox

import (
	"context"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/sshexec"
)

// snippetDialer opens the pinned SSH connections snippets are written on;
// sshexec.Client is the real one.
type snippetDialer interface {
	Dial(ctx context.Context, t sshexec.Target, auth sshexec.Auth) (sshexec.Session, error)
}

// snippetName is the snippet file of a VM: not secret, its content is.
func snippetName(vmid int) string { return "compute-" + strconv.Itoa(vmid) + "-user.yaml" }

// cicustom is the config value that points the VM at its snippet.
func (s snippetConfig) cicustom(vmid int) string {
	return "user=" + s.storage + ":snippets/" + snippetName(vmid)
}

// snippetPath is where the snippet lives on the node: the storage's path
// (a storage of type dir) + /snippets/.
func (a *account) snippetPath(ctx context.Context, vmid int) (string, error) {
	var st struct {
		Type    string `json:"type"`
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	if err := a.c.Get(ctx, "/storage/{storage}", &st, a.snippets.storage); err != nil {
		return "", fail("read storage "+a.snippets.storage, err)
	}
	if st.Path == "" || !strings.Contains(st.Content, "snippets") {
		return "", adapter.Errorf(adapter.InvalidConfig, "snippet_storage %s is not a directory storage with content snippets (type %s, content %s); "+
			"enable snippets on it (Datacenter → Storage → Edit → Content) or name another", a.snippets.storage, st.Type, st.Content).WithField(settingSnippetStorage)
	}
	return strings.TrimSuffix(st.Path, "/") + "/snippets/" + snippetName(vmid), nil
}

// nodeAddress is a node's address as /cluster/status reports it.
func (a *account) nodeAddress(ctx context.Context, nodeName string) (string, error) {
	var entries []struct {
		Type string `json:"type"`
		Name string `json:"name"`
		IP   string `json:"ip"`
	}
	if err := a.c.Get(ctx, "/cluster/status", &entries); err != nil {
		return "", fail("read the cluster's status", err)
	}
	for _, e := range entries {
		if e.Type == "node" && e.Name == nodeName && e.IP != "" {
			return e.IP, nil
		}
	}
	return "", adapter.Errorf(adapter.Transient, "node %s has no address in /cluster/status; it may be offline", nodeName)
}

// files opens a pinned SFTP-capable session to a node. The private key is
// resolved by sshexec only after the host key matched one of the pins.
func (a *account) files(ctx context.Context, nodeName string) (sshexec.Files, error) {
	ip, err := a.nodeAddress(ctx, nodeName)
	if err != nil {
		return nil, err
	}
	t := sshexec.Target{Host: ip, Port: a.snippets.port, User: a.snippets.user, Pin: sshexec.Pin{AnyOf: pinStrings(a.snippets.pins)}}
	sess, err := a.opts.ssh.Dial(ctx, t, func(ctx context.Context) ([]byte, error) {
		v, err := adapter.ResolveField(ctx, a.snippets.secrets, settingSSHPrivateKey, a.snippets.keyRef, "the private key")
		if err != nil {
			return nil, err
		}
		return []byte(v), nil
	})
	if err != nil {
		return nil, err
	}
	f, ok := sess.(sshexec.Files)
	if !ok {
		_ = sess.Close()
		return nil, adapter.Errorf(adapter.Unsupported, "the SSH session to node %s cannot write files", nodeName)
	}
	return f, nil
}

func pinStrings(pins []sshexec.Pin) []string {
	out := make([]string, len(pins))
	for i, p := range pins {
		out[i] = p.Fingerprint
	}
	return out
}

// writeSnippet writes the VM's user data as its snippet, mode 0600.
func (a *account) writeSnippet(ctx context.Context, nodeName string, vmid int, userData string) error {
	return a.onSnippet(ctx, nodeName, vmid, func(f sshexec.Files, path string) error {
		return f.WriteFile(ctx, "write the user data snippet", path, []byte(userData), 0o600)
	})
}

// removeSnippet removes a deleted VM's snippet, tolerating its absence; an
// account without snippets has none.
func (a *account) removeSnippet(ctx context.Context, nodeName string, vmid int) error {
	if !a.snippets.enabled() {
		return nil
	}
	return a.onSnippet(ctx, nodeName, vmid, func(f sshexec.Files, path string) error {
		return f.RemoveFile(ctx, "remove the user data snippet", path)
	})
}

// onSnippet runs op on the VM's snippet path over a session to the node.
func (a *account) onSnippet(ctx context.Context, nodeName string, vmid int, op func(f sshexec.Files, path string) error) error {
	path, err := a.snippetPath(ctx, vmid)
	if err != nil {
		return err
	}
	f, err := a.files(ctx, nodeName)
	if err != nil {
		return err
	}
	defer f.Close()
	return op(f, path)
}
