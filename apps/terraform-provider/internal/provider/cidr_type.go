package provider

import (
	"context"
	"fmt"
	"net/netip"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// NormaliseCIDR is the network a CIDR names, the way the API stores it: a bare address is one
// host (/32 or /128); host bits must be zero (the API refuses 10.0.0.1/8 rather than guess).
func NormaliseCIDR(text string) (netip.Prefix, error) {
	text = strings.TrimSpace(text)
	if !strings.Contains(text, "/") {
		addr, err := netip.ParseAddr(text)
		if err != nil || addr.Zone() != "" {
			return netip.Prefix{}, fmt.Errorf("%q is not an IPv4/IPv6 address or CIDR", text)
		}
		return netip.PrefixFrom(addr, addr.BitLen()), nil
	}
	prefix, err := netip.ParsePrefix(text)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("%q is not an IPv4/IPv6 CIDR", text)
	}
	if prefix.Masked() != prefix {
		return netip.Prefix{}, fmt.Errorf("%q has host bits set; the network is %s", text, prefix.Masked())
	}
	return prefix, nil
}

// CIDRType is a string attribute holding a CIDR. Two values that name the same network
// (10.0.0.1 and 10.0.0.1/32, 2001:DB8::/32 and 2001:db8::/32) are semantically equal, so the
// API's canonical form never shows as a diff against what the configuration says.
type CIDRType struct {
	basetypes.StringType
}

var _ basetypes.StringTypable = CIDRType{}

func (t CIDRType) Equal(o attr.Type) bool {
	_, ok := o.(CIDRType)
	return ok
}

func (t CIDRType) String() string { return "CIDRType" }

func (t CIDRType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return CIDRValue{StringValue: in}, nil
}

func (t CIDRType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	value, err := t.StringType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	stringValue, ok := value.(basetypes.StringValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T", value)
	}
	return CIDRValue{StringValue: stringValue}, nil
}

func (t CIDRType) ValueType(_ context.Context) attr.Value { return CIDRValue{} }

// CIDRValue is a value of CIDRType.
type CIDRValue struct {
	basetypes.StringValue
}

var _ basetypes.StringValuableWithSemanticEquals = CIDRValue{}

// NewCIDRValue wraps a known CIDR text.
func NewCIDRValue(text string) CIDRValue {
	return CIDRValue{StringValue: basetypes.NewStringValue(text)}
}

func (v CIDRValue) Type(_ context.Context) attr.Type { return CIDRType{} }

func (v CIDRValue) Equal(o attr.Value) bool {
	other, ok := o.(CIDRValue)
	return ok && v.StringValue.Equal(other.StringValue)
}

func (v CIDRValue) StringSemanticEquals(_ context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	other, ok := newValuable.(CIDRValue)
	if !ok {
		return false, diags
	}
	a, errA := NormaliseCIDR(v.ValueString())
	b, errB := NormaliseCIDR(other.ValueString())
	return errA == nil && errB == nil && a == b, diags
}
