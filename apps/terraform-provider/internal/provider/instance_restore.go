package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"basalt/terraform-provider-basalt/internal/client"
)

// What a new instance's data is restored from: the `restore_from` block (as configured, never
// read back: the API's normal form of a point in time must not show as a change) and the
// computed `restored_from` (what the API says it was made from).

// restoreSourceModel is restore_from and restored_from.
type restoreSourceModel struct {
	BackupID         types.String `tfsdk:"backup_id"`
	SourceInstanceID types.String `tfsdk:"source_instance_id"`
	PointInTime      types.String `tfsdk:"point_in_time"`
	RdbImportID      types.String `tfsdk:"rdb_import_id"`
}

var restoreSourceAttrTypes = map[string]attr.Type{
	"backup_id":          types.StringType,
	"source_instance_id": types.StringType,
	"point_in_time":      types.StringType,
	"rdb_import_id":      types.StringType,
}

const restoreFromShape = "exactly one of: backup_id, source_instance_id with point_in_time, or rdb_import_id"

func restoreFromBlock() schema.Block {
	return schema.SingleNestedBlock{
		MarkdownDescription: "Start the instance with the data of a succeeded backup (`backup_id`), of an instance of the project at a point in time " +
			"(`source_instance_id` and `point_in_time`, inside its restore window), or of a Redis `dump.rdb` uploaded to the project (`rdb_import_id`). " +
			"The instance type's disk must hold the data. " +
			"Changing it replaces the instance; it is kept as configured and not read back (see `restored_from`).",
		PlanModifiers: []planmodifier.Object{restoreFromReplaces{}},
		Attributes: map[string]schema.Attribute{
			"backup_id": schema.StringAttribute{
				MarkdownDescription: "ID of a succeeded backup (e.g. `basalt_backup.NAME.id`); the data as it was at the backup's `end_time`.",
				Optional:            true,
			},
			"source_instance_id": schema.StringAttribute{
				MarkdownDescription: "ID of the instance whose data is restored at `point_in_time` (a deleted instance's too, while its backups are kept).",
				Optional:            true,
			},
			"point_in_time": schema.StringAttribute{
				MarkdownDescription: "RFC 3339 to the second with a time zone, e.g. `2026-12-01T10:15:30Z`, from the source's oldest backup's `end_time` to its latest archived write.",
				Optional:            true,
				Validators:          []validator.String{pointInTimeValidator},
			},
			"rdb_import_id": schema.StringAttribute{
				MarkdownDescription: "ID of an RDB file uploaded to the project (`POST /v1/projects/{project}/rdb-imports` with the file as the body, " +
					"`application/octet-stream`; at most the platform's `GET …/rdb-imports/limits`), within 24 hours of its upload. " +
					"A `dump.rdb` made by Redis 7 (RDB 10 or older), every type and expiration.",
				Optional: true,
			},
		},
	}
}

func restoredFromAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		MarkdownDescription: "What the instance's data was restored from when it was created, as the API has it; null: it started empty.",
		Computed:            true,
		Attributes: map[string]schema.Attribute{
			"backup_id":          schema.StringAttribute{MarkdownDescription: "The backup restored.", Computed: true},
			"source_instance_id": schema.StringAttribute{MarkdownDescription: "The instance restored at `point_in_time`.", Computed: true},
			"point_in_time":      schema.StringAttribute{MarkdownDescription: "The point restored to (RFC 3339, UTC).", Computed: true},
			"rdb_import_id":      schema.StringAttribute{MarkdownDescription: "The uploaded RDB file read in.", Computed: true},
		},
	}
}

// restoreSourceToModel is the API's restored_from; nil is null.
func restoreSourceToModel(source *client.RestoreSource) (types.Object, diag.Diagnostics) {
	if source == nil {
		return types.ObjectNull(restoreSourceAttrTypes), nil
	}
	optional := func(s string) types.String {
		if s == "" {
			return types.StringNull()
		}
		return types.StringValue(s)
	}
	return types.ObjectValue(restoreSourceAttrTypes, map[string]attr.Value{
		"backup_id":          optional(source.BackupID),
		"source_instance_id": optional(source.SourceInstanceID),
		"point_in_time":      optional(source.PointInTime),
		"rdb_import_id":      optional(source.RdbImportID),
	})
}

// restoreSourceFromModel is the create's restore_from; nil when the block is absent.
func restoreSourceFromModel(ctx context.Context, obj types.Object) (*client.RestoreSource, diag.Diagnostics) {
	if obj.IsNull() || obj.IsUnknown() {
		return nil, nil
	}
	var m restoreSourceModel
	diags := obj.As(ctx, &m, objectAsOptionsLenient)
	return &client.RestoreSource{
		BackupID:         m.BackupID.ValueString(),
		SourceInstanceID: m.SourceInstanceID.ValueString(),
		PointInTime:      m.PointInTime.ValueString(),
		RdbImportID:      m.RdbImportID.ValueString(),
	}, diags
}

// restoreFromProblem is why a configured restore_from has the wrong shape, or "" (unknown
// values are judged at apply, by the API).
func restoreFromProblem(m restoreSourceModel) string {
	set := func(v types.String) bool { return !v.IsNull() }
	if m.BackupID.IsUnknown() || m.SourceInstanceID.IsUnknown() || m.PointInTime.IsUnknown() || m.RdbImportID.IsUnknown() {
		return ""
	}
	backup, source, point, rdb := set(m.BackupID), set(m.SourceInstanceID), set(m.PointInTime), set(m.RdbImportID)
	if (backup && !source && !point && !rdb) || (!backup && source && point && !rdb) || (rdb && !backup && !source && !point) {
		return ""
	}
	return "restore_from takes " + restoreFromShape + "."
}

// checkRestoreFrom refuses a restore_from of the wrong shape at plan time.
func checkRestoreFrom(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var obj types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("restore_from"), &obj)...)
	if resp.Diagnostics.HasError() || obj.IsNull() || obj.IsUnknown() {
		return
	}
	var m restoreSourceModel
	resp.Diagnostics.Append(obj.As(ctx, &m, objectAsOptionsLenient)...)
	if problem := restoreFromProblem(m); problem != "" {
		resp.Diagnostics.AddAttributeError(path.Root("restore_from"), "Invalid restore_from", problem)
	}
}

// restoreFromReplaces replaces the instance when restore_from asks for other data than the
// instance was made with. Removing the block, or writing down after an import what the API's
// restored_from already says, changes nothing on the instance.
type restoreFromReplaces struct{}

var _ planmodifier.Object = restoreFromReplaces{}

func (restoreFromReplaces) Description(context.Context) string {
	return "replaces the instance when it would start from other data"
}
func (m restoreFromReplaces) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (restoreFromReplaces) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if req.State.Raw.IsNull() || req.PlanValue.IsNull() || req.PlanValue.Equal(req.StateValue) {
		return
	}
	if !req.StateValue.IsNull() {
		resp.RequiresReplace = true
		return
	}
	var restored types.Object
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("restored_from"), &restored)...)
	resp.RequiresReplace = !sameRestoreSource(ctx, req.PlanValue, restored)
}

// sameRestoreSource reports whether the configured block names what the API's restored_from
// does: the same backup, or the same source at the same instant however it is written.
func sameRestoreSource(ctx context.Context, configured, restored types.Object) bool {
	if restored.IsNull() || restored.IsUnknown() || configured.IsUnknown() {
		return false
	}
	var a, b restoreSourceModel
	if configured.As(ctx, &a, objectAsOptionsLenient).HasError() || restored.As(ctx, &b, objectAsOptionsLenient).HasError() {
		return false
	}
	if !a.RdbImportID.IsNull() || !b.RdbImportID.IsNull() {
		return a.RdbImportID.Equal(b.RdbImportID) && a.BackupID.IsNull() && b.BackupID.IsNull() && a.SourceInstanceID.IsNull() && b.SourceInstanceID.IsNull()
	}
	if !a.BackupID.IsNull() || !b.BackupID.IsNull() {
		return a.BackupID.Equal(b.BackupID) && a.SourceInstanceID.IsNull() && b.SourceInstanceID.IsNull()
	}
	if !a.SourceInstanceID.Equal(b.SourceInstanceID) {
		return false
	}
	at, errA := time.Parse(time.RFC3339, a.PointInTime.ValueString())
	bt, errB := time.Parse(time.RFC3339, b.PointInTime.ValueString())
	return errA == nil && errB == nil && at.Equal(bt)
}
