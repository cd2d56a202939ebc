package sshhost

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// forever is how long a hung install waits.
const forever = time.Duration(1<<63 - 1)

// installConfig is what installimage reads from its -c file.
type installConfig struct {
	drives   []string // DRIVE1, DRIVE2, … in order
	swraid   bool
	hostname string
	image    string
	hasRoot  bool
}

func (m *Machine) parseInstallConfig(text string) (installConfig, error) {
	c := installConfig{hostname: "localhost"}
	level := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		key := f[0]
		switch {
		case strings.HasPrefix(key, "DRIVE") && len(f) == 2:
			if key != fmt.Sprintf("DRIVE%d", len(c.drives)+1) {
				return c, fmt.Errorf("%s out of order: expected DRIVE%d", key, len(c.drives)+1)
			}
			c.drives = append(c.drives, f[1])
		case key == "SWRAID" && len(f) == 2 && (f[1] == "0" || f[1] == "1"):
			c.swraid = f[1] == "1"
		case key == "SWRAIDLEVEL" && len(f) == 2:
			level = f[1]
		case key == "HOSTNAME" && len(f) == 2:
			c.hostname = f[1]
		case key == "PART" && len(f) == 4:
			c.hasRoot = c.hasRoot || f[1] == "/"
		case key == "IMAGE" && len(f) == 2:
			c.image = f[1]
		default:
			return c, fmt.Errorf("invalid line in config: %q", line)
		}
	}
	if len(c.drives) == 0 {
		return c, errors.New("no DRIVE1 given")
	}
	have := map[string]bool{}
	for _, d := range m.drives() {
		have["/dev/"+d.name] = true
	}
	for _, d := range c.drives {
		if !have[d] {
			return c, fmt.Errorf("drive %s not found", d)
		}
	}
	if c.swraid && len(c.drives) < 2 {
		return c, errors.New("SWRAID 1 needs at least two drives")
	}
	if c.swraid && !slices.Contains([]string{"0", "1", "5", "6", "10"}, level) {
		return c, fmt.Errorf("invalid SWRAIDLEVEL %q", level)
	}
	if !c.hasRoot {
		return c, errors.New("no partition for / given")
	}
	name, ok := strings.CutPrefix(c.image, "/root/images/")
	name, ok2 := strings.CutSuffix(name, ".tar.gz")
	if !ok || !ok2 || !slices.Contains(m.farm.opts.Images, name) {
		return c, fmt.Errorf("image %q not found", c.image)
	}
	return c, nil
}

// rootDevice is where the installed root lives: the md array with
// software RAID (md0 is /boot), else the second partition of DRIVE1.
func (c installConfig) rootDevice() string {
	if c.swraid {
		return "/dev/md1"
	}
	if strings.HasPrefix(c.drives[0], "/dev/nvme") {
		return c.drives[0] + "p2"
	}
	return c.drives[0] + "2"
}

// cmdInstallimage is installimage -a -c CONF -K KEYS. A valid run wipes
// the disk at once, takes the farm's install duration (or hangs, or fails,
// as the machine's faults say) and then writes a fresh system with a new
// host key; a run killed or failed midway leaves the disk empty.
func cmdInstallimage(sh *shell, io stdio, args []string) int {
	var conf, keys string
	auto := false
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-a":
			auto = true
		case "-c", "-K":
			if i+1 == len(args) {
				return usage(io, "installimage", args)
			}
			if args[i] == "-c" {
				conf = args[i+1]
			} else {
				keys = args[i+1]
			}
			i++
		default:
			return usage(io, "installimage", args)
		}
	}
	if !auto || conf == "" || keys == "" {
		fmt.Fprintln(io.err, "installimage: only unattended runs (-a -c CONF -K KEYS) are emulated")
		return 1
	}
	m := sh.sys.m
	text, err := sh.read(conf)
	if err != nil {
		fmt.Fprintf(io.err, "installimage: config %s: %v\n", conf, err)
		return 1
	}
	cfg, err := m.parseInstallConfig(string(text))
	if err != nil {
		fmt.Fprintf(io.err, "installimage: %v\n", err)
		return 1
	}
	authorized, err := sh.read(keys)
	if err == nil {
		err = checkAuthorizedKeys(authorized)
	}
	if err != nil {
		fmt.Fprintf(io.err, "installimage: keys %s: %v\n", keys, err)
		return 1
	}

	m.mu.Lock()
	m.installs++
	m.disk = disk{}
	m.units = map[string]*UnitState{}
	hang := m.faults.hangInstall
	m.mu.Unlock()
	sh.sys.mu.Lock()
	sh.sys.mounted = false
	sh.sys.mu.Unlock()
	fmt.Fprintf(io.out, "installimage: installing %s on %s\n", cfg.image, strings.Join(cfg.drives, ", "))

	// A hung install waits for a time that never comes, on the same clock,
	// so a test's fake clock sees it start.
	wait := m.farm.opts.InstallDuration
	if hang {
		wait = forever
	}
	select {
	case <-m.farm.clock.After(wait):
	case <-sh.ctx.Done():
	}
	if sh.ctx.Err() != nil {
		return 143 // killed by SIGHUP with its session, or by the reset
	}
	m.mu.Lock()
	reason := m.faults.failInstall
	m.mu.Unlock()
	if reason != "" {
		fmt.Fprintln(io.err, reason)
		return 1
	}
	d, err := newInstalledDisk(cfg, authorized)
	if err != nil {
		fmt.Fprintf(io.err, "installimage: %v\n", err)
		return 1
	}
	m.mu.Lock()
	m.disk = d
	m.mu.Unlock()
	fmt.Fprintln(io.out, "installimage: installation complete")
	return 0
}

func checkAuthorizedKeys(data []byte) error {
	n := 0
	for len(strings.TrimSpace(string(data))) > 0 {
		_, _, _, rest, err := ssh.ParseAuthorizedKey(data)
		if err != nil {
			return errors.New("not an authorized_keys file")
		}
		n++
		data = rest
	}
	if n == 0 {
		return errors.New("no keys")
	}
	return nil
}

func newInstalledDisk(cfg installConfig, authorized []byte) (disk, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return disk{}, err
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		return disk{}, err
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return disk{}, err
	}
	fs := newFS("/boot", "/etc/ssh", "/etc/systemd/system/multi-user.target.wants",
		"/root/.ssh", "/usr/local/bin", "/usr/bin", "/var/lib", "/tmp", "/mnt", "/dev")
	_ = fs.writeFile("/etc/hostname", []byte(cfg.hostname+"\n"), 0o644, false)
	_ = fs.writeFile(hostKeyPath, pemBytes(block.Type, block.Bytes), 0o600, false)
	_ = fs.writeFile(hostKeyPath+".pub", ssh.MarshalAuthorizedKey(signer.PublicKey()), 0o644, false)
	_ = fs.writeFile("/root/.ssh/authorized_keys", authorized, 0o600, false)
	_ = fs.writeFile("/usr/bin/install", nil, 0o755, false)
	return disk{fs: fs, rootDev: cfg.rootDevice()}, nil
}
