package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = &InstanceDataSource{}
	_ datasource.DataSourceWithConfigure = &InstanceDataSource{}
)

// InstanceDataSource is basalt_instance (read only): an instance managed elsewhere.
type InstanceDataSource struct{ configurable }

// NewInstanceDataSource is the constructor the provider registers.
func NewInstanceDataSource() datasource.DataSource { return &InstanceDataSource{} }

func (d *InstanceDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_instance"
}

func (d *InstanceDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(description string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: description, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one instance of the provider's project by ID. Passwords are never returned by the API, so there is no connection URI here.",
		Attributes: map[string]schema.Attribute{
			"id":            schema.StringAttribute{MarkdownDescription: "Instance ID.", Required: true},
			"name":          computed("Name."),
			"instance_type": computed("Instance type."),
			"region":        computed("Region."),
			"disk_gib":      schema.Int64Attribute{MarkdownDescription: "Disk size in GiB.", Computed: true},
			"architecture":  computed("`standalone` or `standard` (a primary with replicas)."),
			"replicas":      schema.Int64Attribute{MarkdownDescription: "Replicas beside the primary (0 for standalone).", Computed: true},
			"nodes": schema.ListNestedAttribute{
				MarkdownDescription: "The instance's VMs as read now, primary first.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":       computed("Node name."),
					"private_ip": computed("The node's own address."),
					"role":       computed("`primary` or `replica`."),
					"status":     computed("`creating`, `running`, `unreachable`, `fenced` or `rebuilding`."),
					"lag_bytes":  schema.Int64Attribute{MarkdownDescription: "Replication lag of a replica in bytes; null for the primary or when unknown.", Computed: true},
				}},
			},
			"readonly_host":        computed("Address of the read-only endpoint over the replicas; null for standalone."),
			"readonly_port":        schema.Int64Attribute{MarkdownDescription: "Port of the read-only endpoint; null for standalone.", Computed: true},
			"tls_enabled":          schema.BoolAttribute{MarkdownDescription: "Whether the endpoint uses TLS.", Computed: true},
			"deletion_protection":  schema.BoolAttribute{MarkdownDescription: "Whether deletion is refused.", Computed: true},
			"data_browser_enabled": schema.BoolAttribute{MarkdownDescription: "Whether the console's data browser may connect to the instance.", Computed: true},
			"tags":                 schema.MapAttribute{MarkdownDescription: "Tags.", ElementType: types.StringType, Computed: true},
			"allowlist": schema.SetNestedAttribute{
				MarkdownDescription: "Networks allowed to connect (empty: every address).",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"cidr":        schema.StringAttribute{MarkdownDescription: "Network in canonical CIDR form.", Computed: true, CustomType: CIDRType{}},
					"description": computed("What the entry is for."),
				}},
			},
			"parameters": schema.SingleNestedAttribute{
				MarkdownDescription: "Engine settings that were set (null: the server's default).",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"fsync":            computed("When the write-ahead log is fsynced."),
					"maxclients":       schema.Int64Attribute{MarkdownDescription: "Connection limit.", Computed: true},
					"timeout":          schema.Int64Attribute{MarkdownDescription: "Idle client timeout in seconds.", Computed: true},
					"replication_mode": computed("`sync` or `async` (standard instances); null for standalone."),
				},
			},
			"backup_window":         computed("The daily automatic backup's window, UTC, `HH:MM-HH:MM`."),
			"backup_retention_days": schema.Int64Attribute{MarkdownDescription: "Days automatic and final backups are kept (0: no automatic backups).", Computed: true},
			"restored_from": schema.SingleNestedAttribute{
				MarkdownDescription: "What the instance's data was restored from when it was created; null: it started empty.",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"backup_id":          computed("The backup restored."),
					"source_instance_id": computed("The instance restored at `point_in_time`."),
					"point_in_time":      computed("The point restored to (RFC 3339, UTC)."),
					"rdb_import_id":      computed("The uploaded RDB file read in."),
				},
			},
			"status":         computed("Lifecycle status as read now."),
			"health":         computed("Health as read now."),
			"host":           computed("Address of the endpoint."),
			"port":           schema.Int64Attribute{MarkdownDescription: "Port of the endpoint.", Computed: true},
			"ca_certificate": computed("PEM of the endpoint's CA; null without TLS."),
			"created_at":     computed("When the instance was created (RFC 3339)."),
		},
	}
}

func (d *InstanceDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var state InstanceAttributesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	inst, allowlist, diags := readInstance(ctx, d.data, state.ID.ValueString())
	resp.Diagnostics.Append(diags...)
	if inst == nil && !diags.HasError() {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "No such instance", fmt.Sprintf("instance %s does not exist in project %s (or was deleted)", state.ID.ValueString(), d.data.project))
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(state.setFromAPI(inst, allowlist)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}
