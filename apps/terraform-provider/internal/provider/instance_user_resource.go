package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"basalt/terraform-provider-basalt/internal/client"
)

const defaultUserTimeout = 10 * time.Minute

var permissions = []string{"read_only", "read_write", "admin"}

var (
	_ resource.Resource                = &InstanceUserResource{}
	_ resource.ResourceWithConfigure   = &InstanceUserResource{}
	_ resource.ResourceWithImportState = &InstanceUserResource{}
	_ resource.ResourceWithModifyPlan  = &InstanceUserResource{}
)

// InstanceUserResource is basalt_instance_user.
type InstanceUserResource struct{ configurableResource }

// NewInstanceUserResource is the constructor the provider registers.
func NewInstanceUserResource() resource.Resource {
	return &InstanceUserResource{}
}

// InstanceUserResourceModel is basalt_instance_user's state.
type InstanceUserResourceModel struct {
	ID              types.String   `tfsdk:"id"`
	InstanceID      types.String   `tfsdk:"instance_id"`
	Username        types.String   `tfsdk:"username"`
	Permission      types.String   `tfsdk:"permission"`
	Password        types.String   `tfsdk:"password"`
	PasswordVersion types.Int64    `tfsdk:"password_version"`
	ConnectionURI   types.String   `tfsdk:"connection_uri"`
	Timeouts        timeouts.Value `tfsdk:"timeouts"`
}

func (r *InstanceUserResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_instance_user"
}

func (r *InstanceUserResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A database user of a Basalt instance (an ACL user of the engine). Changes are applied to the running engine and waited on. " +
			"Import with `terraform import basalt_instance_user.NAME INSTANCE_ID/USERNAME`.",
		Attributes: withAttributes(map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "`INSTANCE_ID/USERNAME`.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"instance_id": schema.StringAttribute{
				MarkdownDescription: "ID of the instance. Changing it replaces the user.",
				Required:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"username": schema.StringAttribute{
				MarkdownDescription: "User name: 1-64 of `A-Z a-z 0-9 _ . -`. Changing it replaces the user.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.RegexMatches(mustCompile(`^[A-Za-z0-9_.-]{1,64}$`), "must be 1-64 of A-Z a-z 0-9 _ . -")},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"permission": schema.StringAttribute{
				MarkdownDescription: "`read_only`, `read_write` or `admin`; changed in place.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.OneOf(permissions...)},
			},
		}, passwordAttributes("the user", "`redis://USERNAME:PASSWORD@HOST:PORT` of the instance's endpoint")),
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

func (r *InstanceUserResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	planRotation(ctx, req, resp)
}

// userID is the import ID and id attribute: INSTANCE_ID/USERNAME.
func userID(instanceID, username string) string { return instanceID + "/" + username }

// connectionURIFor builds the user's URI on the instance's endpoint; null without a password or endpoint.
func (r *InstanceUserResource) connectionURIFor(ctx context.Context, instanceID, username, password string) (types.String, error) {
	inst, err := r.data.client.GetInstance(ctx, r.data.project, instanceID)
	if err != nil {
		return types.StringNull(), err
	}
	if uri := ConnectionURI(inst.PrimaryEndpoint(), username, password); uri != "" {
		return types.StringValue(uri), nil
	}
	return types.StringNull(), nil
}

func (r *InstanceUserResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan InstanceUserResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	instanceID, username := plan.InstanceID.ValueString(), plan.Username.ValueString()
	ctx, done, diags := r.data.beginChange(ctx, plan.Timeouts.Create, defaultUserTimeout, instanceID)
	defer done()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	change, err := r.data.client.CreateInstanceUser(ctx, r.data.project, instanceID, username, plan.Permission.ValueString(), stringPointer(plan.Password))
	if err != nil {
		resp.Diagnostics.AddError("Creating the user failed", err.Error())
		return
	}
	plan.ID = types.StringValue(userID(instanceID, username))
	uri, err := r.connectionURIFor(context.WithoutCancel(ctx), instanceID, username, change.Password)
	if err != nil {
		resp.Diagnostics.AddError("Reading the instance's endpoint failed", err.Error())
	}
	plan.ConnectionURI = uri
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	resp.Diagnostics.Append(waitForOperation(ctx, r.data.client, change.Operation, fmt.Sprintf("Creating user %s on %s", username, instanceID))...)
}

func (r *InstanceUserResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state InstanceUserResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	instanceID, username := state.InstanceID.ValueString(), state.Username.ValueString()
	inst, err := r.data.client.GetInstance(ctx, r.data.project, instanceID)
	if client.IsNotFound(err) || (err == nil && inst.Gone()) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading the instance failed", err.Error())
		return
	}
	user, err := r.data.client.GetInstanceUser(ctx, r.data.project, instanceID, username)
	if client.IsNotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading the user failed", err.Error())
		return
	}
	state.ID = types.StringValue(userID(instanceID, user.Username))
	state.Permission = types.StringValue(user.Permission)
	password := knownPassword(state.ConnectionURI, state.Password)
	state.ConnectionURI = types.StringNull()
	if uri := ConnectionURI(inst.PrimaryEndpoint(), username, password); uri != "" {
		state.ConnectionURI = types.StringValue(uri)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *InstanceUserResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state InstanceUserResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	instanceID, username := state.InstanceID.ValueString(), state.Username.ValueString()
	what := fmt.Sprintf("user %s on %s", username, instanceID)
	ctx, done, diags := r.data.beginChange(ctx, plan.Timeouts.Update, defaultUserTimeout, instanceID)
	defer done()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	password := knownPassword(state.ConnectionURI, state.Password)
	if !plan.Permission.Equal(state.Permission) {
		change, err := r.data.client.UpdateInstanceUser(ctx, r.data.project, instanceID, username, plan.Permission.ValueString())
		if err != nil {
			resp.Diagnostics.AddError("Changing the permission of "+what+" failed", err.Error())
			return
		}
		resp.Diagnostics.Append(waitForOperation(ctx, r.data.client, change.Operation, "Changing the permission of "+what)...)
	}
	if passwordRotates(plan.Password, plan.PasswordVersion, state.Password, state.PasswordVersion) && !resp.Diagnostics.HasError() {
		change, err := r.data.client.ResetPassword(ctx, r.data.project, instanceID, username, stringPointer(plan.Password))
		if err != nil {
			resp.Diagnostics.AddError("Rotating the password of "+what+" failed", err.Error())
			return
		}
		password = change.Password
		resp.Diagnostics.Append(waitForOperation(ctx, r.data.client, change.Operation, "Rotating the password of "+what)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	uri, err := r.connectionURIFor(context.WithoutCancel(ctx), instanceID, username, password)
	if err != nil {
		resp.Diagnostics.AddError("Reading the instance's endpoint failed", err.Error())
		return
	}
	plan.ID = types.StringValue(userID(instanceID, username))
	plan.ConnectionURI = uri
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *InstanceUserResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state InstanceUserResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	instanceID, username := state.InstanceID.ValueString(), state.Username.ValueString()
	ctx, done, diags := r.data.beginChange(ctx, state.Timeouts.Delete, defaultUserTimeout, instanceID)
	defer done()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	op, err := r.data.client.DeleteInstanceUser(ctx, r.data.project, instanceID, username)
	if client.IsNotFound(err) {
		return
	}
	if err != nil {
		// The instance itself is going away: its users go with it.
		if inst, getErr := r.data.client.GetInstance(ctx, r.data.project, instanceID); client.IsNotFound(getErr) || (getErr == nil && (inst.Gone() || inst.Status == "deleting")) {
			return
		}
		resp.Diagnostics.AddError("Deleting user "+username+" failed", err.Error())
		return
	}
	resp.Diagnostics.Append(waitForOperation(ctx, r.data.client, op, fmt.Sprintf("Deleting user %s on %s", username, instanceID))...)
}

func (r *InstanceUserResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	instanceID, username, ok := strings.Cut(req.ID, "/")
	if !ok || instanceID == "" || username == "" {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("expected INSTANCE_ID/USERNAME, got %q", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("instance_id"), instanceID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("username"), username)...)
}
