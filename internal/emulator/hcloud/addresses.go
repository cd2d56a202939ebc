package hcloud

import (
	"fmt"
	"net/netip"
)

// addressPool hands out public addresses from the documentation ranges
// only (RFC 5737 for IPv4, RFC 3849 for IPv6), so nothing the emulator
// invents can ever reach a real host. IPv4 addresses are reused after
// their server is gone. The three /24s hold 759 addresses; past that many
// live servers addresses repeat, which is harmless because they are never
// dialled and keeps benchmarks with a thousand servers running.
type addressPool struct {
	nextV4 int
	freeV4 []string
	nextV6 uint32
}

var v4Ranges = []netip.Prefix{
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
}

// Hosts .2 to .254 of each range: .0 and .255 are network and broadcast,
// .1 is the gateway Hetzner routes through.
const hostsPerRange = 253

func (p *addressPool) takeV4() string {
	if n := len(p.freeV4); n > 0 {
		a := p.freeV4[n-1]
		p.freeV4 = p.freeV4[:n-1]
		return a
	}
	i := p.nextV4 % (hostsPerRange * len(v4Ranges))
	p.nextV4++
	base := v4Ranges[i/hostsPerRange].Addr().As4()
	base[3] = byte(2 + i%hostsPerRange)
	return netip.AddrFrom4(base).String()
}

// releaseV4 returns an address to the pool unless the pool has wrapped
// (the address may still be held twice) or it came from a test's seed.
func (p *addressPool) releaseV4(a string) {
	addr, err := netip.ParseAddr(a)
	if err != nil || p.nextV4 > hostsPerRange*len(v4Ranges) {
		return
	}
	for _, r := range v4Ranges {
		if r.Contains(addr) {
			p.freeV4 = append(p.freeV4, a)
			return
		}
	}
}

// takeV6 returns a fresh /64 out of 2001:db8::/32, as the API gives every
// server its own /64.
func (p *addressPool) takeV6() string {
	p.nextV6++
	return fmt.Sprintf("2001:db8:%x:%x::/64", p.nextV6>>16, p.nextV6&0xffff)
}

// reverseDNS is the PTR name the API reports for an IPv4 address.
func reverseDNS(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil || !a.Is4() {
		return ""
	}
	b := a.As4()
	return fmt.Sprintf("static.%d.%d.%d.%d.clients.your-server.de", b[3], b[2], b[1], b[0])
}
