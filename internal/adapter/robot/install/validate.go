package install

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Validate refuses a request whose values could reach a generated line as
// anything but one plain word. Errors are InvalidInput with Field set to
// the attribute path ("hostname", "files[2].path", "first_boot.url"); they
// repeat the value, which is never a secret here (contents are not checked
// and never shown).
func Validate(req adapter.BootstrapRequest) error {
	if err := checkImage(req.Image); err != nil {
		return err
	}
	if err := checkHostname(req.Hostname); err != nil {
		return err
	}
	seen := map[string]int{}
	for i, f := range req.Files {
		field := fmt.Sprintf("files[%d]", i)
		if err := checkPath(field+".path", f.Path); err != nil {
			return err
		}
		if j, dup := seen[f.Path]; dup {
			return invalid(field+".path", "path %q is also the path of files[%d]; give each file its own path", f.Path, j)
		}
		seen[f.Path] = i
		if _, err := NormalMode(f.Mode); err != nil {
			return invalid(field+".mode", "mode %q is not an octal file mode from 0000 to 0777, e.g. \"0600\"", f.Mode)
		}
		if (f.Ref == "") == (f.Value == nil) {
			return invalid(field, "a file needs exactly one of a secret reference and a write-only value")
		}
	}
	if fb := req.FirstBoot; fb != nil {
		if err := checkFirstBoot(*fb); err != nil {
			return err
		}
	}
	for i, a := range req.ReadyCommand {
		if err := checkArg(fmt.Sprintf("ready_command[%d]", i), a); err != nil {
			return err
		}
	}
	return nil
}

func invalid(field, format string, args ...any) error {
	return adapter.Errorf(adapter.InvalidInput, format, args...).WithField(field)
}

// plain is the bare word syntax without "%", which systemd would read as a
// specifier in a unit file.
func plain(s string) bool { return isBare(s) && !strings.Contains(s, "%") }

func checkImage(s string) error {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return invalid("image", "image %q may hold only letters, digits, '-', '_' and '.', as Robot names its images (e.g. \"Ubuntu-2404-noble-amd64-base\")", s)
		}
	}
	if s == "" || strings.Contains(s, "..") {
		return invalid("image", "image %q is not an image name; use one of Robot's, e.g. \"Ubuntu-2404-noble-amd64-base\"", s)
	}
	return nil
}

func checkHostname(s string) error {
	if len(s) == 0 || len(s) > 253 {
		return invalid("hostname", "hostname %q must be 1 to 253 characters", s)
	}
	for _, label := range strings.Split(s, ".") {
		ok := label != "" && len(label) <= 63 && label[0] != '-' && label[len(label)-1] != '-'
		for _, r := range label {
			ok = ok && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-')
		}
		if !ok {
			return invalid("hostname", "hostname %q is not a DNS name: labels of letters, digits and '-', separated by dots", s)
		}
	}
	return nil
}

// checkPath wants an absolute, clean path of plain words: no "..", no
// doubled or trailing slash, nothing a shell or systemd reads specially.
func checkPath(field, p string) error {
	switch {
	case !strings.HasPrefix(p, "/") || p == "/":
		return invalid(field, "path %q must be an absolute path of a file, like \"/etc/app/token\"", p)
	case !plain(p):
		return invalid(field, "path %q may hold only letters, digits and _ . / : = @ + , - (no spaces, quotes, $, %%, ;, &, |, backslashes or backquotes)", p)
	case path.Clean(p) != p || strings.Contains(p, "/../") || strings.HasSuffix(p, "/.."):
		return invalid(field, "path %q must be clean: no \"..\", \".\", doubled or trailing slashes; write it as %q", p, path.Clean(p))
	}
	return nil
}

func checkArg(field, a string) error {
	if !plain(a) {
		return invalid(field, "argument %q may hold only letters, digits and _ . / : = @ + , - (no spaces, quotes, $, %%, ;, &, |, backslashes or backquotes): it is written into a unit file and a shell line", a)
	}
	return nil
}

func checkFirstBoot(fb adapter.FirstBoot) error {
	if !strings.HasPrefix(fb.URL, "https://") || len(fb.URL) == len("https://") {
		return invalid("first_boot.url", "url %q must be an https:// URL: the binary is fetched with curl --proto =https", fb.URL)
	}
	for _, r := range fb.URL {
		if !bareChar(r) && !strings.ContainsRune("?&#~", r) {
			return invalid("first_boot.url", "url %q holds %q; percent-encode it (%%XX): the URL is one single-quoted word of a shell line", fb.URL, r)
		}
	}
	if len(fb.SHA256) != 64 || strings.Trim(strings.ToLower(fb.SHA256), "0123456789abcdef") != "" {
		return invalid("first_boot.sha256", "sha256 %q is not 64 hex digits (the output of sha256sum)", fb.SHA256)
	}
	if len(fb.Command) == 0 {
		return invalid("first_boot.command", "command is empty; its first element is where the binary is installed, e.g. [\"/usr/local/bin/first-boot\"]")
	}
	if err := checkPath("first_boot.command[0]", fb.Command[0]); err != nil {
		return err
	}
	for i, a := range fb.Command[1:] {
		if err := checkArg(fmt.Sprintf("first_boot.command[%d]", i+1), a); err != nil {
			return err
		}
	}
	return nil
}

// NormalMode returns an octal mode from 0000 to 0777 as four digits.
func NormalMode(m string) (string, error) {
	v, err := strconv.ParseUint(m, 8, 16)
	if err != nil || len(m) < 3 || len(m) > 4 || v > 0o777 {
		return "", fmt.Errorf("not an octal mode from 0000 to 0777")
	}
	return fmt.Sprintf("%04o", v), nil
}
