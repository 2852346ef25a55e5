package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"basalt/terraform-provider-basalt/internal/client"
)

var (
	_ datasource.DataSource              = &BackupsDataSource{}
	_ datasource.DataSourceWithConfigure = &BackupsDataSource{}
)

// BackupsDataSource is basalt_backups: every backup of one instance.
type BackupsDataSource struct{ configurable }

// NewBackupsDataSource is the constructor the provider registers.
func NewBackupsDataSource() datasource.DataSource { return &BackupsDataSource{} }

// BackupsDataSourceModel is basalt_backups' state.
type BackupsDataSourceModel struct {
	InstanceID types.String  `tfsdk:"instance_id"`
	Backups    []backupModel `tfsdk:"backups"`
}

// backupModel is one backup: an element of basalt_backups' backups, and basalt_backup's attributes.
type backupModel struct {
	ID        types.String `tfsdk:"id"`
	Kind      types.String `tfsdk:"kind"`
	Status    types.String `tfsdk:"status"`
	EndTime   types.String `tfsdk:"end_time"`
	SizeBytes types.Int64  `tfsdk:"size_bytes"`
	Segments  types.Int64  `tfsdk:"segments"`
	CreatedAt types.String `tfsdk:"created_at"`
	ExpiresAt types.String `tfsdk:"expires_at"`
}

func (d *BackupsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_backups"
}

func (d *BackupsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(description string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: description, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The backups of one instance of the provider's project, newest first: manual ones, and automatic and final ones.",
		Attributes: map[string]schema.Attribute{
			"instance_id": schema.StringAttribute{MarkdownDescription: "Instance ID (a deleted instance's backups are listed while they are kept).", Required: true},
			"backups": schema.ListNestedAttribute{
				MarkdownDescription: "Newest first.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":         computed("Backup ID; `restore_from { backup_id = ... }` of a `basalt_instance` restores it."),
					"kind":       computed("`manual` (kept until deleted), `automatic` (the daily one, kept `backup_retention_days`) or `final` (taken when the instance was deleted)."),
					"status":     computed("`pending`, `running`, `succeeded`, `failed` or `deleting`."),
					"end_time":   computed("The point the backup is consistent at (RFC 3339); null until it has succeeded."),
					"size_bytes": schema.Int64Attribute{MarkdownDescription: "Bytes of data it restores.", Computed: true},
					"segments":   schema.Int64Attribute{MarkdownDescription: "Log segments it names.", Computed: true},
					"created_at": computed("When it was asked for (RFC 3339)."),
					"expires_at": computed("When retention removes it (RFC 3339); null: kept until deleted."),
				}},
			},
		},
	}
}

// backupToModel is one backup as the API has it.
func backupToModel(b *client.Backup) backupModel {
	return backupModel{
		ID:        types.StringValue(b.ID),
		Kind:      types.StringValue(b.Kind),
		Status:    types.StringValue(b.Status),
		EndTime:   types.StringPointerValue(b.EndTime),
		SizeBytes: types.Int64Value(b.SizeBytes),
		Segments:  types.Int64Value(b.Segments),
		CreatedAt: types.StringValue(b.CreatedAt),
		ExpiresAt: types.StringPointerValue(b.ExpiresAt),
	}
}

func (d *BackupsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var state BackupsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	backups, err := d.data.client.ListBackups(ctx, d.data.project, state.InstanceID.ValueString())
	if client.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(path.Root("instance_id"), "No such instance", fmt.Sprintf("instance %s does not exist in project %s", state.InstanceID.ValueString(), d.data.project))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading the backups failed", err.Error())
		return
	}
	state.Backups = make([]backupModel, 0, len(backups))
	for i := range backups {
		state.Backups = append(state.Backups, backupToModel(&backups[i]))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}
