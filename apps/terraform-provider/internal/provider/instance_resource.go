package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"basalt/terraform-provider-basalt/internal/client"
)

const (
	defaultCreateTimeout = 30 * time.Minute
	defaultUpdateTimeout = 30 * time.Minute
	defaultDeleteTimeout = 20 * time.Minute
)

// Patterns and sets shared with the API's validation (services/api instance.dto.ts), checked at
// plan time so a typo fails before anything is created.
const (
	instanceNamePattern = `^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$`
	dbPasswordPattern   = `^[A-Za-z0-9!#$%&()*+,\-.:;<=>?@\[\]^_{|}~]{12,128}$`
)

var fsyncPolicies = []string{"always", "everysec", "no"}

// architectures and replicationModes are the API's (CreateInstanceDto, InstanceParametersDto).
var architectures = []string{"standalone", "standard"}
var replicationModes = []string{"sync", "async"}

// nodeAttributes is the schema of one element of nodes (resource and data source).
func nodeAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name":       schema.StringAttribute{MarkdownDescription: "Node name.", Computed: true},
		"private_ip": schema.StringAttribute{MarkdownDescription: "The node's own address (clients use `host`, which follows the primary).", Computed: true},
		"role":       schema.StringAttribute{MarkdownDescription: "`primary` or `replica`.", Computed: true},
		"status":     schema.StringAttribute{MarkdownDescription: "`creating`, `running`, `unreachable`, `fenced` or `rebuilding`.", Computed: true},
		"lag_bytes":  schema.Int64Attribute{MarkdownDescription: "Bytes of the primary's replication stream this replica has not received; null for the primary or when unknown.", Computed: true},
	}
}

var objectAsOptionsLenient = basetypes.ObjectAsOptions{UnhandledNullAsEmpty: true, UnhandledUnknownAsEmpty: true}

var (
	_ resource.Resource                = &InstanceResource{}
	_ resource.ResourceWithConfigure   = &InstanceResource{}
	_ resource.ResourceWithImportState = &InstanceResource{}
	_ resource.ResourceWithModifyPlan  = &InstanceResource{}
)

// InstanceResource is basalt_instance.
type InstanceResource struct{ configurableResource }

// NewInstanceResource is the constructor the provider registers.
func NewInstanceResource() resource.Resource {
	return &InstanceResource{}
}

func (r *InstanceResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_instance"
}

func (r *InstanceResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A Basalt instance: VMs of an instance type in a region running Basalt's Redis-compatible engine, " +
			"with an endpoint, a `default` user and an IP allowlist. Create, update and delete wait on the operation the API " +
			"returns; a failed operation's step, message and output tail are the error. Resize, disk growth, allowlist, tags, " +
			"parameters, deletion protection, backup settings and password rotation change the instance in place. " +
			"A `restore_from` block starts it with the data of a backup or of an instance at a point in time.",
		Attributes: withAttributes(map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "Instance ID (a UUID); `terraform import basalt_instance.NAME ID` imports by it.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Name, unique in the project: 1-63 lowercase letters, digits or hyphens, starting with a letter and not ending with a hyphen. Renaming is in place.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.RegexMatches(mustCompile(instanceNamePattern), "must be 1-63 lowercase letters, digits or hyphens, start with a letter and not end with a hyphen")},
			},
			"instance_type": schema.StringAttribute{
				MarkdownDescription: "Instance type, e.g. `kv.standard.small` (see the `basalt_instance_types` data source). Changing it resizes the instance in place; data is kept.",
				Required:            true,
			},
			"region": schema.StringAttribute{
				MarkdownDescription: "Region, e.g. `local` (see the `basalt_regions` data source). Changing it replaces the instance.",
				Required:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"disk_gib": schema.Int64Attribute{
				MarkdownDescription: "Disk size in GiB; defaults to the instance type's minimum. Disks only grow: a larger value grows the disk in place, a smaller one is refused at plan time.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.Int64{int64validator.Between(1, 100000)},
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"architecture": schema.StringAttribute{
				MarkdownDescription: "`standalone` (one node, the default) or `standard`: a primary and `replicas` replicas on separate VMs with automatic failover; " +
					"`host`/`port` follow the primary, `readonly_host`/`readonly_port` reach the replicas. Changing it replaces the instance.",
				Optional:      true,
				Computed:      true,
				Default:       stringdefault.StaticString("standalone"),
				Validators:    []validator.String{stringvalidator.OneOf(architectures...)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"replicas": schema.Int64Attribute{
				MarkdownDescription: "Replicas beside the primary, 1-5, `standard` only (default 1; 0 for `standalone`). Each is a VM of the instance type. Changing it replaces the instance.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.Int64{int64validator.Between(1, 5)},
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown(), int64planmodifier.RequiresReplace()},
			},
			"nodes": schema.ListNestedAttribute{
				MarkdownDescription: "The instance's VMs as last read, primary first: `name`, `private_ip`, `role` (`primary` or `replica`), `status` and `lag_bytes` (replication lag of a replica).",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: nodeAttributes()},
			},
			"readonly_host": schema.StringAttribute{
				MarkdownDescription: "Address of the read-only endpoint over the replicas; null for `standalone`.",
				Computed:            true,
			},
			"readonly_port": schema.Int64Attribute{
				MarkdownDescription: "Port of the read-only endpoint; null for `standalone`.",
				Computed:            true,
			},
			"allowlist": schema.SetNestedAttribute{
				MarkdownDescription: "Networks allowed to connect. Empty (the default) lets every address in. A bare address means one host; " +
					"`10.0.0.1` and `10.0.0.1/32` are the same entry, so the API's canonical form never shows as a change. Changes apply to the running engine in place.",
				Optional: true,
				Computed: true,
				Default:  setdefault.StaticValue(types.SetValueMust(allowlistEntryType, []attr.Value{})),
				Validators: []validator.Set{
					setvalidator.SizeAtMost(1000),
					distinctNetworks{},
				},
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"cidr": schema.StringAttribute{
							MarkdownDescription: "IPv4 or IPv6 CIDR with zero host bits, or a bare address.",
							Required:            true,
							CustomType:          CIDRType{},
							Validators:          []validator.String{cidrValidator{}},
						},
						"description": schema.StringAttribute{
							MarkdownDescription: "What the entry is for (at most 256 characters).",
							Optional:            true,
							Computed:            true,
							Default:             stringdefault.StaticString(""),
							Validators:          []validator.String{stringvalidator.LengthAtMost(256)},
						},
					},
				},
			},
			"tls_enabled": schema.BoolAttribute{
				MarkdownDescription: "Serve the endpoint over TLS (clients connect with `rediss://` and `ca_certificate`). Changing it replaces the instance.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.RequiresReplace()},
			},
			"deletion_protection": schema.BoolAttribute{
				MarkdownDescription: "While true, the API refuses to delete the instance (and so does `terraform destroy`). Changed in place.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"data_browser_enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the console's data browser may open connections to the instance (as a database user whose password is typed in the browser, never stored); off, its routes answer 409. Changed in place.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(true),
			},
			"tags": schema.MapAttribute{
				MarkdownDescription: "Key/value labels; replaced as a whole in place.",
				ElementType:         types.StringType,
				Optional:            true,
				Computed:            true,
				Default:             mapdefault.StaticValue(types.MapValueMust(types.StringType, map[string]attr.Value{})),
			},
			"parameters": schema.SingleNestedAttribute{
				MarkdownDescription: "Engine settings. A setting left out keeps the server's value; a change is applied in place (the engine restarts with the new configuration).",
				Optional:            true,
				Computed:            true,
				PlanModifiers:       []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"fsync": schema.StringAttribute{
						MarkdownDescription: "When the write-ahead log is fsynced: `always`, `everysec` or `no`.",
						Optional:            true,
						Computed:            true,
						Validators:          []validator.String{stringvalidator.OneOf(fsyncPolicies...)},
						PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
					},
					"maxclients": schema.Int64Attribute{
						MarkdownDescription: "Connection limit, at most what the instance type allows.",
						Optional:            true,
						Computed:            true,
						Validators:          []validator.Int64{int64validator.Between(1, 100000)},
						PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
					},
					"timeout": schema.Int64Attribute{
						MarkdownDescription: "Seconds after which an idle client is disconnected (0: never).",
						Optional:            true,
						Computed:            true,
						Validators:          []validator.Int64{int64validator.Between(0, 86400)},
						PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
					},
					"replication_mode": schema.StringAttribute{
						MarkdownDescription: "`standard` instances only: `sync` (the default; a write is acknowledged once a replica holds it, so a failover loses no acknowledged write) or `async` (acknowledged at once; a failover may lose what `nodes[*].lag_bytes` shows).",
						Optional:            true,
						Computed:            true,
						Validators:          []validator.String{stringvalidator.OneOf(replicationModes...)},
						PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
					},
				},
			},
			"backup_window": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("The daily automatic backup's window, UTC, `HH:MM-HH:MM` (it may cross midnight), at least %d minutes; default `%s`. Changed in place.", backupWindowMinMinutes, backupWindowDefault),
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(backupWindowDefault),
				Validators:          []validator.String{backupWindowValidator},
			},
			"backup_retention_days": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("Days automatic and final backups are kept, %d-%d (default %d); 0 takes no automatic backups. Manual backups (`basalt_backup`) are kept until deleted. Changed in place.", backupRetentionDaysMin, backupRetentionDaysMax, backupRetentionDaysDefault),
				Optional:            true,
				Computed:            true,
				Default:             int64default.StaticInt64(backupRetentionDaysDefault),
				Validators:          []validator.Int64{int64validator.Between(backupRetentionDaysMin, backupRetentionDaysMax)},
			},
			"restored_from": restoredFromWithState(),
			"status": schema.StringAttribute{
				MarkdownDescription: "Lifecycle status as last read: `creating`, `running`, `modifying`, `restarting`, `deleting`, `create_failed` or `error`. Reads never wait for it to change.",
				Computed:            true,
			},
			"health": schema.StringAttribute{
				MarkdownDescription: "Health as last read: `healthy`, `degraded` or `unavailable`; null before the first health check.",
				Computed:            true,
			},
			"host": schema.StringAttribute{
				MarkdownDescription: "Address of the endpoint (the first private one).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"port": schema.Int64Attribute{
				MarkdownDescription: "Port of the endpoint.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"ca_certificate": schema.StringAttribute{
				MarkdownDescription: "PEM of the CA that signed the endpoint's certificate; null without TLS.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the instance was created (RFC 3339).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		}, passwordAttributes("the `default` user", "`redis://default:PASSWORD@HOST:PORT` (`rediss://` with TLS)")),
		Blocks: map[string]schema.Block{
			"restore_from": restoreFromBlock(),
			"timeouts":     timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

// restoredFromWithState is restored_from, which never changes once the instance exists.
func restoredFromWithState() schema.SingleNestedAttribute {
	a := restoredFromAttribute()
	a.PlanModifiers = []planmodifier.Object{objectplanmodifier.UseStateForUnknown()}
	return a
}

// ModifyPlan refuses a shrinking disk at plan time and marks the connection URI as changing
// when the password rotates.
func (r *InstanceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	checkTopology(ctx, req, resp)
	checkRestoreFrom(ctx, req, resp)
	if req.State.Raw.IsNull() {
		return
	}
	var plan, state InstanceResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.DiskGib.IsUnknown() && !plan.DiskGib.IsNull() && !state.DiskGib.IsNull() && plan.DiskGib.ValueInt64() < state.DiskGib.ValueInt64() {
		resp.Diagnostics.AddAttributeError(path.Root("disk_gib"), "Disks only grow",
			fmt.Sprintf("disk_gib is %d now and cannot shrink to %d.", state.DiskGib.ValueInt64(), plan.DiskGib.ValueInt64()))
	}
	planRotation(ctx, req, resp)
}

func (r *InstanceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan InstanceResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(diags...)
	allowlist, diags := allowlistFromModel(ctx, plan.Allowlist)
	resp.Diagnostics.Append(diags...)
	tags, diags := tagsFromModel(ctx, plan.Tags)
	resp.Diagnostics.Append(diags...)
	params, diags := parametersFromModel(ctx, plan.Parameters)
	resp.Diagnostics.Append(diags...)
	restoreFrom, diags := restoreSourceFromModel(ctx, plan.RestoreFrom)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	created, err := r.data.client.CreateInstance(ctx, r.data.project, client.CreateInstanceRequest{
		Name:               plan.Name.ValueString(),
		InstanceType:       plan.InstanceType.ValueString(),
		Region:             plan.Region.ValueString(),
		Architecture:       plan.Architecture.ValueString(),
		Replicas:           int64Pointer(plan.Replicas),
		DiskGib:            int64Pointer(plan.DiskGib),
		Password:           stringPointer(plan.Password),
		Allowlist:          allowlist,
		TLSEnabled:         plan.TLSEnabled.ValueBool(),
		DeletionProtection: plan.DeletionProtection.ValueBool(),
		DataBrowser:        plan.DataBrowser.ValueBoolPointer(),
		Tags:               tags,
		Parameters:         params,
		BackupWindow:       stringPointer(plan.BackupWindow),
		BackupRetention:    int64Pointer(plan.BackupRetention),
		RestoreFrom:        restoreFrom,
	})
	if err != nil {
		resp.Diagnostics.AddError("Creating the instance failed", err.Error())
		return
	}
	password := created.DefaultUser.Password
	waited := waitForOperation(ctx, r.data.client, created.Operation, "Creating instance "+created.Instance.ID)

	// Saved even when the operation failed: Terraform then marks the instance tainted, so the
	// next apply deletes and recreates it instead of leaving it behind unmanaged.
	state := plan
	if readDiags := r.readInto(context.WithoutCancel(ctx), &state, created.Instance.ID, password); readDiags.HasError() {
		resp.Diagnostics.Append(state.setFromAPI(&created.Instance, allowlist, password)...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	resp.Diagnostics.Append(waited...)
}

// readInto reads the instance and its allowlist into m.
func (r *InstanceResource) readInto(ctx context.Context, m *InstanceResourceModel, id, password string) diagnostics {
	inst, allowlist, diags := readInstance(ctx, r.data, id)
	if !diags.HasError() {
		diags.Append(m.setFromAPI(inst, allowlist, password)...)
	}
	return diags
}

func (r *InstanceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state InstanceResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	inst, allowlist, diags := readInstance(ctx, r.data, state.ID.ValueString())
	if inst == nil && !diags.HasError() {
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(state.setFromAPI(inst, allowlist, knownPassword(state.ConnectionURI, state.Password))...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// readInstance is an instance and its allowlist as the API has them now; a nil instance with
// no error means it is gone (404, or status deleted).
func readInstance(ctx context.Context, data *providerData, id string) (*client.Instance, []client.AllowlistEntry, diagnostics) {
	var diags diagnostics
	inst, err := data.client.GetInstance(ctx, data.project, id)
	if client.IsNotFound(err) || (err == nil && inst.Gone()) {
		return nil, nil, diags
	}
	if err != nil {
		diags.AddError("Reading the instance failed", err.Error())
		return nil, nil, diags
	}
	allowlist, err := data.client.GetAllowlist(ctx, data.project, id)
	if client.IsNotFound(err) {
		return nil, nil, diags
	}
	if err != nil {
		diags.AddError("Reading the instance's allowlist failed", err.Error())
		return nil, nil, diags
	}
	return inst, allowlist.Items, diags
}

// knownPassword is the password the provider last set: from the connection URI, else the
// configured one; "" when it has never known one (after an import).
func knownPassword(uri types.String, configured types.String) string {
	if p := PasswordFromURI(uri.ValueString()); p != "" {
		return p
	}
	return configured.ValueString()
}

func (r *InstanceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state InstanceResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	password := knownPassword(state.ConnectionURI, state.Password)
	ctx, done, diags := r.data.beginChange(ctx, plan.Timeouts.Update, defaultUpdateTimeout, id)
	defer done()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}

	// One change at a time, each waited on: the instance runs one operation after another.
	patch, diags := instancePatch(ctx, &plan, &state)
	resp.Diagnostics.Append(diags...)
	if patch != nil && !resp.Diagnostics.HasError() {
		accepted, err := r.data.client.UpdateInstance(ctx, r.data.project, id, *patch)
		if err != nil {
			resp.Diagnostics.AddError("Updating the instance failed", err.Error())
		} else {
			resp.Diagnostics.Append(waitForOperation(ctx, r.data.client, accepted.Operation, "Updating instance "+id)...)
		}
	}
	if !plan.Allowlist.Equal(state.Allowlist) && !resp.Diagnostics.HasError() {
		entries, diags := allowlistFromModel(ctx, plan.Allowlist)
		resp.Diagnostics.Append(diags...)
		if !diags.HasError() {
			result, err := r.data.client.ReplaceAllowlist(ctx, r.data.project, id, entries)
			if err != nil {
				resp.Diagnostics.AddError("Replacing the allowlist failed", err.Error())
			} else {
				resp.Diagnostics.Append(waitForOperation(ctx, r.data.client, result.Operation, "Applying the allowlist of "+id)...)
			}
		}
	}
	if passwordRotates(plan.Password, plan.PasswordVersion, state.Password, state.PasswordVersion) && !resp.Diagnostics.HasError() {
		change, err := r.data.client.ResetPassword(ctx, r.data.project, id, DefaultUsername, stringPointer(plan.Password))
		if err != nil {
			resp.Diagnostics.AddError("Rotating the password failed", err.Error())
		} else {
			password = change.Password
			resp.Diagnostics.Append(waitForOperation(ctx, r.data.client, change.Operation, "Rotating the password of "+id)...)
		}
	}

	// Whatever happened, the state is what the API says now; a failed step leaves the rest of
	// the plan to the next apply.
	next := plan
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(r.readInto(context.WithoutCancel(ctx), &next, id, password)...)
		resp.Diagnostics.Append(resp.State.Set(ctx, &next)...)
		return
	}
	next = state
	if readDiags := r.readInto(context.WithoutCancel(ctx), &next, id, password); !readDiags.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &next)...)
	}
}

// instancePatch is the PATCH body for what changed among the fields PATCH takes, or nil.
func instancePatch(ctx context.Context, plan, state *InstanceResourceModel) (*client.UpdateInstanceRequest, diagnostics) {
	var diags diagnostics
	patch := client.UpdateInstanceRequest{}
	changed := false
	if !plan.Name.Equal(state.Name) {
		patch.Name, changed = stringPointer(plan.Name), true
	}
	if !plan.InstanceType.Equal(state.InstanceType) {
		patch.InstanceType, changed = stringPointer(plan.InstanceType), true
	}
	if !plan.DiskGib.IsUnknown() && !plan.DiskGib.Equal(state.DiskGib) {
		patch.DiskGib, changed = int64Pointer(plan.DiskGib), true
	}
	if !plan.DeletionProtection.Equal(state.DeletionProtection) {
		v := plan.DeletionProtection.ValueBool()
		patch.DeletionProtection, changed = &v, true
	}
	if !plan.DataBrowser.Equal(state.DataBrowser) {
		patch.DataBrowser, changed = plan.DataBrowser.ValueBoolPointer(), true
	}
	if !plan.Tags.Equal(state.Tags) {
		tags, d := tagsFromModel(ctx, plan.Tags)
		diags.Append(d...)
		patch.Tags, changed = &tags, true
	}
	// Stored for the backup scheduler: a PATCH with nothing to deploy.
	if !plan.BackupWindow.IsUnknown() && !plan.BackupWindow.Equal(state.BackupWindow) {
		patch.BackupWindow, changed = stringPointer(plan.BackupWindow), true
	}
	if !plan.BackupRetention.IsUnknown() && !plan.BackupRetention.Equal(state.BackupRetention) {
		patch.BackupRetention, changed = int64Pointer(plan.BackupRetention), true
	}
	if !plan.Parameters.IsUnknown() && !plan.Parameters.Equal(state.Parameters) {
		params, d := parametersFromModel(ctx, plan.Parameters)
		diags.Append(d...)
		if params != nil {
			patch.Parameters, changed = params, true
		}
	}
	if !changed {
		return nil, diags
	}
	return &patch, diags
}

func (r *InstanceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state InstanceResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	ctx, done, diags := r.data.beginChange(ctx, state.Timeouts.Delete, defaultDeleteTimeout, id)
	defer done()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	accepted, err := r.data.client.DeleteInstance(ctx, r.data.project, id)
	if client.IsNotFound(err) {
		return
	}
	if err != nil {
		// Already being deleted (another apply, the console): wait on that deletion instead.
		inst, getErr := r.data.client.GetInstance(ctx, r.data.project, id)
		if getErr == nil && inst.Gone() {
			return
		}
		if getErr == nil && inst.Status == "deleting" && inst.CurrentOperationID != nil {
			resp.Diagnostics.Append(r.deleted(ctx, id, waitForOperation(ctx, r.data.client, &client.Operation{ID: *inst.CurrentOperationID}, "Deleting instance "+id))...)
			return
		}
		resp.Diagnostics.AddError("Deleting the instance failed", err.Error())
		return
	}
	resp.Diagnostics.Append(r.deleted(ctx, id, waitForOperation(ctx, r.data.client, accepted.Operation, "Deleting instance "+id))...)
}

// deleted judges a delete by where the instance ends up: when its operation reported a failure
// but the API shows the instance deleted after all, the destroy succeeded, and the failure is
// passed on as a warning rather than hidden.
func (r *InstanceResource) deleted(ctx context.Context, id string, waited diagnostics) diagnostics {
	if !waited.HasError() {
		return waited
	}
	inst, err := r.data.client.GetInstance(context.WithoutCancel(ctx), r.data.project, id)
	if !client.IsNotFound(err) && (err != nil || !inst.Gone()) {
		return waited
	}
	var diags diagnostics
	for _, d := range waited.Errors() {
		diags.AddWarning(d.Summary()+" (the instance is deleted all the same)", d.Detail())
	}
	return diags
}

func (r *InstanceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}
