package robot

import (
	"net/http"
	"net/url"
	"slices"
)

// linuxInstall is one activation of the Linux installation: on the server's
// next boot Robot installs dist unattended and mails the root password.
// The emulator's machines have no installer of their own, so an
// activation is kept, shown and withdrawn as the webservice does, and the
// machine is left as it is; the provider installs from the rescue system
// instead.
type linuxInstall struct {
	dist, lang string
	keys       []*sshKey
	password   string // a secret: answered while active, never logged or kept past deactivation
}

// linuxLangs are the installation languages Robot offers.
var linuxLangs = []string{"en", "de"}

// linuxBoot is the Linux installation: dist, arch and lang, all three
// required as Robot's description lists them, and authorized_key[]
// (fingerprints under /key).
var linuxBoot = bootKind[linuxInstall]{
	name: "linux", never: "a Linux installation activated",
	required: []string{"dist", "arch", "lang"},
	slots:    func(s *server) (**linuxInstall, **linuxInstall) { return &s.linux, &s.lastLinux },
	show:     (*server).linuxJSON,
	check:    checkLinux,
	arm: func(_ *Emulator, s *server, f url.Values, keys []*sshKey) *linuxInstall {
		act := &linuxInstall{dist: f.Get("dist"), lang: f.Get("lang"), keys: keys, password: rescuePassword()}
		s.linux, s.lastLinux = act, act
		return act
	},
	disarm: func(_ *server, act *linuxInstall) { act.password = "" },
}

// linuxJSON shows act, or the distributions on offer when act is nil, as
// /boot/{n}/linux answers; the password goes only with an armed
// activation. host_key is empty: the installed system's keys are made by
// the installation.
func (s *server) linuxJSON(act *linuxInstall, withPassword bool) map[string]any {
	l := map[string]any{
		"server_ip": s.ip(), "server_ipv6_net": s.ipv6Net, "server_number": s.number,
		"dist": standardDists[1:], "arch": []int{64}, "lang": linuxLangs, "active": false, "password": nil,
		"authorized_key": []any{}, "host_key": []any{},
	}
	if act != nil {
		l["dist"], l["arch"], l["lang"], l["active"] = act.dist, 64, act.lang, act == s.linux
		l["authorized_key"] = keyRefs(act.keys)
		if withPassword {
			l["password"] = act.password
		}
	}
	return l
}

// checkLinux refuses a distribution, arch or language not on offer, and
// any boot configuration armed already: only one is active at a time.
func checkLinux(s *server, f url.Values) *apiError {
	switch dist, arch, lang := f.Get("dist"), f.Get("arch"), f.Get("lang"); {
	case !slices.Contains(standardDists[1:], dist):
		return invalidInput("dist "+dist+" is not offered; take one of "+joinQuoted(standardDists[1:]), "dist")
	case arch != "64":
		return invalidInput("arch "+arch+" is not offered; the installation is 64 bit", "arch")
	case !slices.Contains(linuxLangs, lang):
		return invalidInput("lang "+lang+" is not offered; take one of "+joinQuoted(linuxLangs), "lang")
	case s.rescue != nil || s.linux != nil:
		return failure(http.StatusConflict, codeBootAlreadyEnabled, "server %d has a boot configuration active already; deactivate it first", s.number)
	}
	return nil
}
