package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = &RegionsDataSource{}
	_ datasource.DataSourceWithConfigure = &RegionsDataSource{}
	_ datasource.DataSource              = &InstanceTypesDataSource{}
	_ datasource.DataSourceWithConfigure = &InstanceTypesDataSource{}
)

// configurable is the Configure every data source shares (configurableResource: resources).
type configurable struct {
	data *providerData
}

func (c *configurable) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	data, err := configuredData(req.ProviderData)
	if err != nil {
		resp.Diagnostics.AddError("Unexpected provider data", err.Error())
		return
	}
	c.data = data
}

// RegionsDataSource is basalt_regions.
type RegionsDataSource struct{ configurable }

// NewRegionsDataSource is the constructor the provider registers.
func NewRegionsDataSource() datasource.DataSource { return &RegionsDataSource{} }

// RegionsDataSourceModel is basalt_regions' state.
type RegionsDataSourceModel struct {
	Regions []regionModel `tfsdk:"regions"`
}

type regionModel struct {
	ID            types.String `tfsdk:"id"`
	Name          types.String `tfsdk:"name"`
	Target        types.String `tfsdk:"target"`
	Available     types.Bool   `tfsdk:"available"`
	Reason        types.String `tfsdk:"unavailable_reason"`
	Architectures types.List   `tfsdk:"architectures"`
}

func (d *RegionsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_regions"
}

func (d *RegionsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The regions Basalt offers.",
		Attributes: map[string]schema.Attribute{
			"regions": schema.ListNestedAttribute{
				MarkdownDescription: "Every region, in the API's order.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":                 schema.StringAttribute{MarkdownDescription: "Region ID, the value of `basalt_instance.region`.", Computed: true},
					"name":               schema.StringAttribute{MarkdownDescription: "Display name.", Computed: true},
					"target":             schema.StringAttribute{MarkdownDescription: "Where its VMs run (`local`, `aws`).", Computed: true},
					"available":          schema.BoolAttribute{MarkdownDescription: "Whether new instances can be created in it.", Computed: true},
					"unavailable_reason": schema.StringAttribute{MarkdownDescription: "Why it is unavailable, as its workers found; null when available.", Computed: true},
					"architectures":      schema.ListAttribute{MarkdownDescription: "The `basalt_instance.architecture` values its workers place (`standalone` only where they run process VMs).", ElementType: types.StringType, Computed: true},
				}},
			},
		},
	}
}

func (d *RegionsDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	regions, err := d.data.client.ListRegions(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Listing regions failed", err.Error())
		return
	}
	state := RegionsDataSourceModel{Regions: []regionModel{}}
	for _, r := range regions {
		architectures, diags := types.ListValueFrom(ctx, types.StringType, r.Architectures)
		resp.Diagnostics.Append(diags...)
		state.Regions = append(state.Regions, regionModel{
			ID: types.StringValue(r.ID), Name: types.StringValue(r.Name), Target: types.StringValue(r.Target), Available: types.BoolValue(r.Available),
			Reason: types.StringPointerValue(r.UnavailableReason), Architectures: architectures,
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// InstanceTypesDataSource is basalt_instance_types.
type InstanceTypesDataSource struct{ configurable }

// NewInstanceTypesDataSource is the constructor the provider registers.
func NewInstanceTypesDataSource() datasource.DataSource { return &InstanceTypesDataSource{} }

// InstanceTypesDataSourceModel is basalt_instance_types' state.
type InstanceTypesDataSourceModel struct {
	Region        types.String        `tfsdk:"region"`
	InstanceTypes []instanceTypeModel `tfsdk:"instance_types"`
}

type instanceTypeModel struct {
	ID             types.String `tfsdk:"id"`
	Size           types.String `tfsdk:"size"`
	Vcpu           types.Int64  `tfsdk:"vcpu"`
	MemoryGib      types.Int64  `tfsdk:"memory_gib"`
	DiskGibMin     types.Int64  `tfsdk:"disk_gib_min"`
	DiskGibMax     types.Int64  `tfsdk:"disk_gib_max"`
	MaxConnections types.Int64  `tfsdk:"max_connections"`
	Regions        types.List   `tfsdk:"regions"`
}

func (d *InstanceTypesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_instance_types"
}

func (d *InstanceTypesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The instance types Basalt offers, optionally only those of one region.",
		Attributes: map[string]schema.Attribute{
			"region": schema.StringAttribute{
				MarkdownDescription: "Only types offered in this region; every type when absent.",
				Optional:            true,
			},
			"instance_types": schema.ListNestedAttribute{
				MarkdownDescription: "The types, smallest first.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":              schema.StringAttribute{MarkdownDescription: "Type ID, the value of `basalt_instance.instance_type`.", Computed: true},
					"size":            schema.StringAttribute{MarkdownDescription: "Size name (`small`, `large`, ...).", Computed: true},
					"vcpu":            schema.Int64Attribute{MarkdownDescription: "vCPUs per node.", Computed: true},
					"memory_gib":      schema.Int64Attribute{MarkdownDescription: "Memory per node in GiB.", Computed: true},
					"disk_gib_min":    schema.Int64Attribute{MarkdownDescription: "Smallest disk in GiB (the default `disk_gib`).", Computed: true},
					"disk_gib_max":    schema.Int64Attribute{MarkdownDescription: "Largest disk in GiB.", Computed: true},
					"max_connections": schema.Int64Attribute{MarkdownDescription: "Connection limit (`parameters.maxclients` at most).", Computed: true},
					"regions":         schema.ListAttribute{MarkdownDescription: "Regions offering it.", ElementType: types.StringType, Computed: true},
				}},
			},
		},
	}
}

func (d *InstanceTypesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var state InstanceTypesDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := d.data.client.ListInstanceTypes(ctx, state.Region.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Listing instance types failed", err.Error())
		return
	}
	state.InstanceTypes = []instanceTypeModel{}
	for _, t := range list {
		regions, diags := types.ListValueFrom(ctx, types.StringType, t.Regions)
		resp.Diagnostics.Append(diags...)
		state.InstanceTypes = append(state.InstanceTypes, instanceTypeModel{
			ID: types.StringValue(t.ID), Size: types.StringValue(t.Size), Vcpu: types.Int64Value(t.Vcpu),
			MemoryGib: types.Int64Value(t.MemoryGib), DiskGibMin: types.Int64Value(t.DiskGibMin), DiskGibMax: types.Int64Value(t.DiskGibMax),
			MaxConnections: types.Int64Value(t.MaxConnections), Regions: regions,
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}
