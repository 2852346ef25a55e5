package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// checkTopology refuses at plan time what the API would refuse at apply: replicas and a
// replication mode belong to `standard` instances only (the API's rule in
// @basalt/api-client/rules parseTopology).
func checkTopology(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var architecture types.String
	var replicas types.Int64
	var mode types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("architecture"), &architecture)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("replicas"), &replicas)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("parameters").AtName("replication_mode"), &mode)...)
	if resp.Diagnostics.HasError() || architecture.IsUnknown() || architecture.ValueString() == "standard" {
		return
	}
	if !replicas.IsNull() && !replicas.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root("replicas"), "Replicas need architecture = \"standard\"",
			"A standalone instance has one node; set architecture = \"standard\" for a primary with replicas.")
	}
	if !mode.IsNull() && !mode.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root("parameters").AtName("replication_mode"), "replication_mode needs architecture = \"standard\"",
			"A standalone instance has no replicas to replicate to.")
	}
}
