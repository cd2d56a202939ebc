package adapter

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// The rules a bootstrap request keeps so that every value can be written,
// unchanged, into an installer configuration, a shell line of a script and a
// systemd unit without quoting that one of them would read differently:
// no white space or control characters, no quotes or backslashes, no `$`
// (shell and systemd expansion), no `%` (systemd specifiers), no `;`
// (systemd's command separator). The Terraform layer calls them at plan
// time on each value it knows; an adapter calls CheckBootstrap before it
// sends anything. Their messages quote the value only where it cannot be a
// secret (a URL shows only its scheme and host).

// unsafeChars are the characters that break a unit file or a shell line.
const unsafeChars = " \t\r\n'\"`\\$%;"

var (
	hostnameLabel = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
	imageName     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	pathChars     = regexp.MustCompile(`^[A-Za-z0-9._/@:=+,-]+$`)
	fileMode      = regexp.MustCompile(`^0?[0-7]{3}$`)
	sha256Hex     = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// CheckHostname: an RFC 1123 host name in lower case, at most 253
// characters.
func CheckHostname(v string) error {
	if len(v) > 253 {
		return Errorf(InvalidInput, "hostname %q is longer than 253 characters", v)
	}
	for _, label := range strings.Split(v, ".") {
		if !hostnameLabel.MatchString(label) {
			return Errorf(InvalidInput, "hostname %q is not a host name: it must be lower-case letters, digits and hyphens in dot-separated labels of 1 to 63 characters, each starting and ending with a letter or digit", v)
		}
	}
	return nil
}

// CheckImage: an image name of letters, digits, dots, underscores and
// hyphens.
func CheckImage(v string) error {
	if !imageName.MatchString(v) {
		return Errorf(InvalidInput, "image %q is not an image name: it must be letters, digits, dots, underscores and hyphens, such as \"Ubuntu-2404-noble-amd64-base\"", v)
	}
	return nil
}

// CheckDisks: one of the layouts.
func CheckDisks(v string) error {
	switch DiskLayout(v) {
	case DisksAuto, DisksRAID1, DisksSingle:
		return nil
	}
	return Errorf(InvalidInput, "disks %q is not a layout: use %q, %q or %q", v, DisksAuto, DisksRAID1, DisksSingle)
}

// CheckPath: an absolute path of safe characters with no "." or ".."
// element, not ending in "/".
func CheckPath(v string) error {
	switch {
	case !strings.HasPrefix(v, "/"):
		return Errorf(InvalidInput, "path %q is relative: write the absolute path on the installed system, such as \"/etc/app/token\"", v)
	case !pathChars.MatchString(v):
		return Errorf(InvalidInput, "path %q holds a character that a shell line or unit file would read apart (quotes, spaces, $, %%, ; and the like): use letters, digits and . _ / @ : = + , -", v)
	case strings.HasSuffix(v, "/") || strings.Contains(v, "//"):
		return Errorf(InvalidInput, "path %q names a directory or has an empty element: name the file, such as \"/etc/app/token\"", v)
	}
	for _, elem := range strings.Split(v[1:], "/") {
		if elem == "." || elem == ".." {
			return Errorf(InvalidInput, "path %q has a %q element: write the path without it", v, elem)
		}
	}
	return nil
}

// CheckMode: an octal file mode such as "0600".
func CheckMode(v string) error {
	if !fileMode.MatchString(v) {
		return Errorf(InvalidInput, "mode %q is not an octal file mode: use three octal digits with an optional leading 0, such as \"0600\" or \"0644\"", v)
	}
	return nil
}

// CheckURL: an https URL with a host, without user information (which
// would be a credential) and without characters a shell line reads apart.
// The message shows only the scheme and host.
func CheckURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return Errorf(InvalidInput, "url is not an absolute URL (the value is not shown, it may hold a token): use https://HOST/PATH")
	}
	shown := u.Scheme + "://" + u.Host
	switch {
	case u.Scheme != "https":
		return Errorf(InvalidInput, "url %s is not https: the first-boot binary is fetched over https only, so that its transport is authenticated as well as its digest checked; serve it over https", Quoted(shown+"/…"))
	case u.User != nil:
		return Errorf(InvalidInput, "url %s carries user information, a credential that would be written into the install script: serve the binary without it", Quoted(u.Scheme+"://(user information not shown)@"+u.Hostname()))
	case strings.ContainsAny(v, strings.ReplaceAll(unsafeChars, "%", "")):
		return Errorf(InvalidInput, "url %s holds white space, quotes, a backslash, $ or ;, which a shell line reads apart: percent-encode them", Quoted(shown+"/…"))
	}
	return nil
}

// CheckSHA256: 64 lower-case hex digits.
func CheckSHA256(v string) error {
	if !sha256Hex.MatchString(v) {
		return Errorf(InvalidInput, "sha256 %q is not a SHA-256 digest: write its 64 hex digits in lower case, as sha256sum prints them", v)
	}
	return nil
}

// CheckWord: one word of a command line (first_boot.command,
// ready_command), non-empty and free of the characters that break a unit
// file or a shell line.
func CheckWord(v string) error {
	switch {
	case v == "":
		return Errorf(InvalidInput, "a command word is empty: remove it")
	case strings.ContainsAny(v, unsafeChars) || strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return Errorf(InvalidInput, "command word %q holds white space, a quote, a backslash, $, %% or ;, which a unit file or a shell line reads apart: pass each argument as its own list element, without those characters", v)
	}
	return nil
}

// CheckCommand: a non-empty argv of safe words; when installed is set,
// its first word is an absolute path (where the first-boot binary goes).
func CheckCommand(argv []string, installed bool) error {
	if len(argv) == 0 {
		return Errorf(InvalidInput, "the command is empty: give at least the program")
	}
	if installed {
		if err := CheckPath(argv[0]); err != nil {
			return Errorf(InvalidInput, "the first word is where the binary is installed: %s", MessageOf(err))
		}
	}
	for _, w := range argv {
		if err := CheckWord(w); err != nil {
			return err
		}
	}
	return nil
}

// CheckBootstrap checks a whole request with the rules above. The error's
// Field names the value at fault as the Terraform layer spells it:
// "hostname", "files[1].path", "first_boot.command[0]".
func CheckBootstrap(req BootstrapRequest) error {
	at := func(field string, err error) error {
		if err == nil {
			return nil
		}
		return WithFieldOf(err, field)
	}
	if err := at("hostname", CheckHostname(req.Hostname)); err != nil {
		return err
	}
	if err := at("image", CheckImage(req.Image)); err != nil {
		return err
	}
	if err := at("disks", CheckDisks(string(req.Disks))); err != nil {
		return err
	}
	for i, f := range req.Files {
		if err := at(fmt.Sprintf("files[%d].path", i), CheckPath(f.Path)); err != nil {
			return err
		}
		if err := at(fmt.Sprintf("files[%d].mode", i), CheckMode(f.Mode)); err != nil {
			return err
		}
		if (f.Ref == "") == (f.Value == nil) {
			return Errorf(InvalidInput, "file %q needs exactly one of a secret reference and a write-only value", f.Path).WithField(fmt.Sprintf("files[%d]", i))
		}
	}
	if fb := req.FirstBoot; fb != nil {
		if err := at("first_boot.url", CheckURL(fb.URL)); err != nil {
			return err
		}
		if err := at("first_boot.sha256", CheckSHA256(fb.SHA256)); err != nil {
			return err
		}
		if err := checkArgv(at, "first_boot.command", fb.Command, true); err != nil {
			return err
		}
	}
	if req.ReadyCommand != nil {
		return checkArgv(at, "ready_command", req.ReadyCommand, false)
	}
	return nil
}

// checkArgv is CheckCommand with the word at fault named by its index
// ("first_boot.command[2]"), as the plan-time checks name it; an empty
// argv is the attribute's own fault.
func checkArgv(at func(string, error) error, field string, argv []string, installed bool) error {
	if len(argv) == 0 {
		return at(field, CheckCommand(argv, installed))
	}
	for i, w := range argv {
		if err := at(fmt.Sprintf("%s[%d]", field, i), CheckCommand([]string{w}, installed && i == 0)); err != nil {
			return err
		}
	}
	return nil
}
