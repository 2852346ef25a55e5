package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"basalt/terraform-provider-basalt/internal/client"
)

const (
	defaultBackupCreateTimeout = 30 * time.Minute
	defaultBackupDeleteTimeout = 5 * time.Minute
)

var (
	_ resource.Resource                = &BackupResource{}
	_ resource.ResourceWithConfigure   = &BackupResource{}
	_ resource.ResourceWithImportState = &BackupResource{}
)

// BackupResource is basalt_backup: a manual backup of an instance, kept until it is destroyed.
type BackupResource struct{ configurableResource }

// NewBackupResource is the constructor the provider registers.
func NewBackupResource() resource.Resource { return &BackupResource{} }

// BackupResourceModel is basalt_backup's state: the backup as the API shows it (backupModel,
// one element of basalt_backups too), its instance and the timeouts.
type BackupResourceModel struct {
	backupModel
	InstanceID types.String   `tfsdk:"instance_id"`
	Timeouts   timeouts.Value `tfsdk:"timeouts"`
}

func (r *BackupResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_backup"
}

func (r *BackupResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	fixed := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A manual backup of a Basalt instance, taken when the resource is created and kept until it is destroyed. " +
			"Create waits until the backup has succeeded (a failed one is the error, with its reason); destroy asks the API to remove it. " +
			"Restore it into a new instance with `basalt_instance`'s `restore_from { backup_id = ... }`. " +
			"Import with `terraform import basalt_backup.NAME BACKUP_ID`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "Backup ID (a UUID).",
				Computed:            true,
				PlanModifiers:       fixed,
			},
			"instance_id": schema.StringAttribute{
				MarkdownDescription: "ID of the instance to back up (running, or in error). Changing it replaces the backup.",
				Required:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"kind": schema.StringAttribute{
				MarkdownDescription: "`manual` for a backup made here (an import may name an `automatic` or `final` one).",
				Computed:            true,
				PlanModifiers:       fixed,
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "`succeeded` once created; as last read afterwards.",
				Computed:            true,
				PlanModifiers:       fixed,
			},
			"end_time": schema.StringAttribute{
				MarkdownDescription: "The point the backup is consistent at (RFC 3339): what a restore from it holds, and the earliest point the instance's restore window reaches through it.",
				Computed:            true,
				PlanModifiers:       fixed,
			},
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: "Bytes of data the backup restores; the new instance's disk must hold them.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"segments": schema.Int64Attribute{
				MarkdownDescription: "Log segments the backup names.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the backup was asked for (RFC 3339).",
				Computed:            true,
				PlanModifiers:       fixed,
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When retention removes the backup (RFC 3339); null for a manual backup, kept until destroyed.",
				Computed:            true,
				PlanModifiers:       fixed,
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Delete: true}),
		},
	}
}

// setFromAPI writes what the API says about the backup into the model.
func (m *BackupResourceModel) setFromAPI(b *client.Backup) {
	m.backupModel = backupToModel(b)
	m.InstanceID = types.StringValue(b.InstanceID)
}

// backupFailure is the text of a backup that did not succeed: its step and reason.
func backupFailure(b *client.Backup) string {
	if b.Error == nil {
		return fmt.Sprintf("backup %s is %s", b.ID, b.Status)
	}
	at := ""
	if b.Error.Step != "" {
		at = " at step " + b.Error.Step
	}
	return fmt.Sprintf("backup %s %s%s: %s (%s)", b.ID, b.Status, at, b.Error.Message, b.Error.Code)
}

func (r *BackupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan BackupResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	instanceID := plan.InstanceID.ValueString()
	// The backup is an operation of the instance: it waits its turn behind the instance's other changes.
	ctx, done, diags := r.data.beginChange(ctx, plan.Timeouts.Create, defaultBackupCreateTimeout, instanceID)
	defer done()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	accepted, err := r.data.client.CreateBackup(ctx, r.data.project, instanceID)
	if err != nil {
		resp.Diagnostics.AddError("Asking for a backup of "+instanceID+" failed", err.Error())
		return
	}
	waited := waitForOperation(ctx, r.data.client, accepted.Operation, "Backing up instance "+instanceID)

	// Saved even when it failed: Terraform then marks it tainted, and the next apply removes
	// the failed backup and takes another.
	state := plan
	state.setFromAPI(&accepted.Backup)
	backup, err := r.data.client.GetBackup(context.WithoutCancel(ctx), r.data.project, accepted.Backup.ID)
	if err == nil {
		state.setFromAPI(backup)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	switch {
	case waited.HasError():
		resp.Diagnostics.Append(waited...)
	case err != nil:
		resp.Diagnostics.AddError("Reading the backup failed", err.Error())
	case backup.Status != "succeeded":
		resp.Diagnostics.AddError("The backup of "+instanceID+" did not succeed", backupFailure(backup))
	}
}

func (r *BackupResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state BackupResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	backup, err := r.data.client.GetBackup(ctx, r.data.project, state.ID.ValueString())
	// A backup being deleted is on its way out: nothing left to restore from.
	if client.IsNotFound(err) || (err == nil && backup.Status == "deleting") {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading the backup failed", err.Error())
		return
	}
	state.setFromAPI(backup)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update only ever changes timeouts: every other argument replaces the backup.
func (r *BackupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan BackupResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *BackupResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state BackupResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, defaultBackupDeleteTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// The API removes the backup's objects, then its row; it is gone for a restore at once.
	_, err := r.data.client.DeleteBackup(ctx, r.data.project, state.ID.ValueString())
	if err != nil && !client.IsNotFound(err) {
		resp.Diagnostics.AddError("Deleting backup "+state.ID.ValueString()+" failed", err.Error())
	}
}

func (r *BackupResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}
