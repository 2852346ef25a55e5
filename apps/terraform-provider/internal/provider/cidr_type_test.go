package provider

import (
	"context"
	"testing"
)

func TestNormaliseCIDR(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{in: "10.0.0.1", want: "10.0.0.1/32"},
		{in: " 10.0.0.0/8 ", want: "10.0.0.0/8"},
		{in: "0.0.0.0/0", want: "0.0.0.0/0"},
		{in: "2001:DB8::", want: "2001:db8::/128"},
		{in: "2001:db8:0:0::/32", want: "2001:db8::/32"},
		{in: "10.0.0.1/8", err: `"10.0.0.1/8" has host bits set; the network is 10.0.0.0/8`},
		{in: "10.0.0.0/33", err: `"10.0.0.0/33" is not an IPv4/IPv6 CIDR`},
		{in: "fe80::1%eth0", err: `"fe80::1%eth0" is not an IPv4/IPv6 address or CIDR`},
		{in: "example", err: `"example" is not an IPv4/IPv6 address or CIDR`},
		{in: "", err: `"" is not an IPv4/IPv6 address or CIDR`},
	}
	for _, c := range cases {
		got, err := NormaliseCIDR(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("NormaliseCIDR(%q) error = %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got.String() != c.want {
			t.Errorf("NormaliseCIDR(%q) = %v, %v; want %s", c.in, got, err, c.want)
		}
	}
}

func TestCIDRSemanticEquality(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		config, api string
		equal       bool
	}{
		{"10.0.0.1", "10.0.0.1/32", true},
		{"2001:DB8::/32", "2001:db8::/32", true},
		{"10.0.0.0/8", "10.0.0.0/8", true},
		{"10.0.0.0/8", "10.0.0.0/16", false},
		{"10.0.0.1", "10.0.0.2/32", false},
		{"not a cidr", "not a cidr", false},
	}
	for _, c := range cases {
		equal, diags := NewCIDRValue(c.config).StringSemanticEquals(ctx, NewCIDRValue(c.api))
		if diags.HasError() || equal != c.equal {
			t.Errorf("%q ~ %q = %v (%v), want %v", c.config, c.api, equal, diags, c.equal)
		}
	}
}
