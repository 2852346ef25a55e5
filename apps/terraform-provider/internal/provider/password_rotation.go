package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The password attributes basalt_instance (its `default` user) and basalt_instance_user share:
// password, password_version and connection_uri, and the one rule for when they rotate.

const dbPasswordRule = "12-128 printable ASCII characters without spaces, quotes or backslashes"

// passwordAttributes are the schema of password, password_version and connection_uri for
// `whose` ("the `default` user's", "the user's") and a URI example.
func passwordAttributes(whose, uriExample string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"password": schema.StringAttribute{
			MarkdownDescription: "Password of " + whose + ": " + dbPasswordRule + ". When absent, Basalt generates one and it is only in the sensitive `connection_uri`. " +
				"Changing it rotates the password in place: the new one works at once and the old one keeps working until it is revoked or the rotation window ends. " +
				"Terraform 1.5 has no write-only attributes, so a password set here is kept (marked sensitive) in the state; see the provider docs.",
			Optional:   true,
			Sensitive:  true,
			Validators: []validator.String{stringvalidator.RegexMatches(mustCompile(dbPasswordPattern), "must be "+dbPasswordRule)},
		},
		"password_version": schema.Int64Attribute{
			MarkdownDescription: "Change this number to rotate the password of " + whose + " in place: to `password` when it is set, else to a newly generated one. The old password keeps working until revoked or the rotation window ends. Removing it rotates nothing.",
			Optional:            true,
		},
		"connection_uri": schema.StringAttribute{
			MarkdownDescription: uriExample + " for `redis-cli -u` and client libraries. Sensitive. Null after an import until the password is rotated, because the API never returns a password again.",
			Computed:            true,
			Sensitive:           true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
	}
}

// passwordRotates is the one rule for when an update rotates a password: the password changed,
// or password_version was set to a new value (removing password_version rotates nothing).
func passwordRotates(planPassword types.String, planVersion types.Int64, statePassword types.String, stateVersion types.Int64) bool {
	if !planPassword.Equal(statePassword) {
		return true
	}
	return !planVersion.IsNull() && !planVersion.Equal(stateVersion)
}

// planRotation marks connection_uri as known only after apply when the update rotates the password.
func planRotation(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var planPassword, statePassword types.String
	var planVersion, stateVersion types.Int64
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("password"), &planPassword)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("password_version"), &planVersion)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("password"), &statePassword)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("password_version"), &stateVersion)...)
	if !resp.Diagnostics.HasError() && passwordRotates(planPassword, planVersion, statePassword, stateVersion) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("connection_uri"), types.StringUnknown())...)
	}
}

// withAttributes adds more to attrs (the schema's own attributes) and returns it.
func withAttributes(attrs map[string]schema.Attribute, more map[string]schema.Attribute) map[string]schema.Attribute {
	for name, a := range more {
		attrs[name] = a
	}
	return attrs
}
