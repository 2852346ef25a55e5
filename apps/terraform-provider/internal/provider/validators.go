package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type diagnostics = diag.Diagnostics

func mustCompile(pattern string) *regexp.Regexp { return regexp.MustCompile(pattern) }

// cidrValidator accepts what NormaliseCIDR accepts, at plan time.
type cidrValidator struct{}

var _ validator.String = cidrValidator{}

func (cidrValidator) Description(context.Context) string {
	return "an IPv4/IPv6 CIDR with zero host bits, or a bare address"
}
func (v cidrValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (cidrValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := NormaliseCIDR(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid CIDR", err.Error())
	}
}

// distinctNetworks refuses two allowlist entries naming the same network (10.0.0.1 and
// 10.0.0.1/32): the API would keep one, and the plan would never match the state.
type distinctNetworks struct{}

var _ validator.Set = distinctNetworks{}

func (distinctNetworks) Description(context.Context) string {
	return "no two entries name the same network"
}
func (v distinctNetworks) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (distinctNetworks) ValidateSet(ctx context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	seen := map[string]string{}
	for _, element := range req.ConfigValue.Elements() {
		obj, ok := element.(types.Object)
		if !ok || obj.IsUnknown() {
			continue
		}
		cidr, ok := obj.Attributes()["cidr"].(CIDRValue)
		if !ok || cidr.IsUnknown() || cidr.IsNull() {
			continue
		}
		network, err := NormaliseCIDR(cidr.ValueString())
		if err != nil {
			continue // cidrValidator reports it
		}
		if first, dup := seen[network.String()]; dup {
			resp.Diagnostics.AddAttributeError(req.Path, "Duplicate allowlist network",
				fmt.Sprintf("%q and %q are the same network (%s); keep one.", first, cidr.ValueString(), network))
			continue
		}
		seen[network.String()] = cidr.ValueString()
	}
}
