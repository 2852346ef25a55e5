package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"basalt/terraform-provider-basalt/internal/client"
)

// DefaultUsername is the user every instance is created with; the instance's password is its.
const DefaultUsername = "default"

// InstanceAttributesModel is what the API says about an instance: the basalt_instance data
// source's whole state, and the part of the resource's state read back after every change.
type InstanceAttributesModel struct {
	ID                 types.String `tfsdk:"id"`
	Name               types.String `tfsdk:"name"`
	InstanceType       types.String `tfsdk:"instance_type"`
	Region             types.String `tfsdk:"region"`
	DiskGib            types.Int64  `tfsdk:"disk_gib"`
	Architecture       types.String `tfsdk:"architecture"`
	Replicas           types.Int64  `tfsdk:"replicas"`
	Nodes              types.List   `tfsdk:"nodes"`
	ReadonlyHost       types.String `tfsdk:"readonly_host"`
	ReadonlyPort       types.Int64  `tfsdk:"readonly_port"`
	Allowlist          types.Set    `tfsdk:"allowlist"`
	TLSEnabled         types.Bool   `tfsdk:"tls_enabled"`
	DeletionProtection types.Bool   `tfsdk:"deletion_protection"`
	DataBrowser        types.Bool   `tfsdk:"data_browser_enabled"`
	Tags               types.Map    `tfsdk:"tags"`
	Parameters         types.Object `tfsdk:"parameters"`
	BackupWindow       types.String `tfsdk:"backup_window"`
	BackupRetention    types.Int64  `tfsdk:"backup_retention_days"`
	RestoredFrom       types.Object `tfsdk:"restored_from"`
	Status             types.String `tfsdk:"status"`
	Health             types.String `tfsdk:"health"`
	Host               types.String `tfsdk:"host"`
	Port               types.Int64  `tfsdk:"port"`
	CACertificate      types.String `tfsdk:"ca_certificate"`
	CreatedAt          types.String `tfsdk:"created_at"`
}

// InstanceResourceModel is basalt_instance's state: the API's attributes plus what only the
// configuration and the provider know (the password, its version, timeouts).
type InstanceResourceModel struct {
	InstanceAttributesModel
	Password        types.String `tfsdk:"password"`
	PasswordVersion types.Int64  `tfsdk:"password_version"`
	ConnectionURI   types.String `tfsdk:"connection_uri"`
	// RestoreFrom is kept as configured: Read never writes it.
	RestoreFrom types.Object   `tfsdk:"restore_from"`
	Timeouts    timeouts.Value `tfsdk:"timeouts"`
}

// allowlistEntryModel is one element of the allowlist set.
type allowlistEntryModel struct {
	CIDR        CIDRValue    `tfsdk:"cidr"`
	Description types.String `tfsdk:"description"`
}

// parametersModel is the parameters object; null fields are the server's defaults.
type parametersModel struct {
	Fsync      types.String `tfsdk:"fsync"`
	Maxclients types.Int64  `tfsdk:"maxclients"`
	Timeout    types.Int64  `tfsdk:"timeout"`
	// ReplicationMode is `sync` or `async`; null for a standalone instance.
	ReplicationMode types.String `tfsdk:"replication_mode"`
}

var allowlistEntryAttrTypes = map[string]attr.Type{"cidr": CIDRType{}, "description": types.StringType}
var allowlistEntryType = types.ObjectType{AttrTypes: allowlistEntryAttrTypes}
var parametersAttrTypes = map[string]attr.Type{
	"fsync":            types.StringType,
	"maxclients":       types.Int64Type,
	"timeout":          types.Int64Type,
	"replication_mode": types.StringType,
}

// nodeAttrTypes is one element of nodes: a VM of the instance as the API shows it.
var nodeAttrTypes = map[string]attr.Type{
	"name":       types.StringType,
	"private_ip": types.StringType,
	"role":       types.StringType,
	"status":     types.StringType,
	"lag_bytes":  types.Int64Type,
}
var nodeType = types.ObjectType{AttrTypes: nodeAttrTypes}

// nodesToModel is the API's nodes in the API's order (primary first).
func nodesToModel(nodes []client.Node) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	values := make([]attr.Value, 0, len(nodes))
	for _, n := range nodes {
		obj, d := types.ObjectValue(nodeAttrTypes, map[string]attr.Value{
			"name":       types.StringValue(n.Name),
			"private_ip": types.StringValue(n.PrivateIP),
			"role":       types.StringValue(n.Role),
			"status":     types.StringValue(n.Status),
			"lag_bytes":  types.Int64PointerValue(n.LagBytes),
		})
		diags.Append(d...)
		values = append(values, obj)
	}
	list, d := types.ListValue(nodeType, values)
	diags.Append(d...)
	return list, diags
}

// allowlistFromModel is the allowlist to send; an unknown or null set sends none.
func allowlistFromModel(ctx context.Context, set types.Set) ([]client.AllowlistEntry, diag.Diagnostics) {
	entries := []client.AllowlistEntry{}
	if set.IsNull() || set.IsUnknown() {
		return entries, nil
	}
	var models []allowlistEntryModel
	diags := set.ElementsAs(ctx, &models, false)
	for _, m := range models {
		entries = append(entries, client.AllowlistEntry{CIDR: m.CIDR.ValueString(), Description: m.Description.ValueString()})
	}
	return entries, diags
}

// allowlistToModel is the API's entries as a set, sorted so the state reads the same each time.
func allowlistToModel(entries []client.AllowlistEntry) (types.Set, diag.Diagnostics) {
	sorted := append([]client.AllowlistEntry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].CIDR < sorted[j].CIDR })
	values := make([]attr.Value, 0, len(sorted))
	var diags diag.Diagnostics
	for _, e := range sorted {
		obj, d := types.ObjectValue(allowlistEntryAttrTypes, map[string]attr.Value{
			"cidr":        NewCIDRValue(e.CIDR),
			"description": types.StringValue(e.Description),
		})
		diags.Append(d...)
		values = append(values, obj)
	}
	set, d := types.SetValue(allowlistEntryType, values)
	diags.Append(d...)
	return set, diags
}

// parametersFromModel is the parameters to send: only the known, non-null ones.
func parametersFromModel(ctx context.Context, obj types.Object) (*client.Parameters, diag.Diagnostics) {
	if obj.IsNull() || obj.IsUnknown() {
		return nil, nil
	}
	var m parametersModel
	diags := obj.As(ctx, &m, objectAsOptionsLenient)
	p := &client.Parameters{
		Fsync:           stringPointer(m.Fsync),
		Maxclients:      int64Pointer(m.Maxclients),
		Timeout:         int64Pointer(m.Timeout),
		ReplicationMode: stringPointer(m.ReplicationMode),
	}
	if p.Fsync == nil && p.Maxclients == nil && p.Timeout == nil && p.ReplicationMode == nil {
		return nil, diags
	}
	return p, diags
}

func parametersToModel(p client.Parameters) (types.Object, diag.Diagnostics) {
	return types.ObjectValue(parametersAttrTypes, map[string]attr.Value{
		"fsync":            types.StringPointerValue(p.Fsync),
		"maxclients":       types.Int64PointerValue(p.Maxclients),
		"timeout":          types.Int64PointerValue(p.Timeout),
		"replication_mode": types.StringPointerValue(p.ReplicationMode),
	})
}

// tagsFromModel is the tags to send; null or unknown is no tags.
func tagsFromModel(ctx context.Context, m types.Map) (map[string]string, diag.Diagnostics) {
	tags := map[string]string{}
	if m.IsNull() || m.IsUnknown() {
		return tags, nil
	}
	diags := m.ElementsAs(ctx, &tags, false)
	return tags, diags
}

// setFromAPI writes what the API says about the instance into the model.
func (m *InstanceAttributesModel) setFromAPI(inst *client.Instance, allowlist []client.AllowlistEntry) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(inst.ID)
	m.Name = types.StringValue(inst.Name)
	m.InstanceType = types.StringValue(inst.InstanceType)
	m.Region = types.StringValue(inst.Region)
	m.DiskGib = types.Int64Value(inst.DiskGib)
	m.Architecture = types.StringValue(inst.Architecture)
	m.Replicas = types.Int64Value(inst.Replicas)
	nodes, d := nodesToModel(inst.Nodes)
	diags.Append(d...)
	m.Nodes = nodes
	m.TLSEnabled = types.BoolValue(inst.TLSEnabled)
	m.DeletionProtection = types.BoolValue(inst.DeletionProtection)
	m.DataBrowser = types.BoolValue(inst.DataBrowser)
	tags, d := types.MapValueFrom(context.Background(), types.StringType, nonNilTags(inst.Tags))
	diags.Append(d...)
	m.Tags = tags
	params, d := parametersToModel(inst.Parameters)
	diags.Append(d...)
	m.Parameters = params
	m.BackupWindow = types.StringValue(inst.BackupWindow)
	m.BackupRetention = types.Int64Value(inst.BackupRetention)
	restored, d := restoreSourceToModel(inst.RestoredFrom)
	diags.Append(d...)
	m.RestoredFrom = restored
	set, d := allowlistToModel(allowlist)
	diags.Append(d...)
	m.Allowlist = set
	m.Status = types.StringValue(inst.Status)
	m.Health = types.StringPointerValue(inst.Health)
	m.CreatedAt = types.StringValue(inst.CreatedAt)
	m.Host, m.Port, m.CACertificate = types.StringNull(), types.Int64Null(), types.StringNull()
	if endpoint := inst.PrimaryEndpoint(); endpoint != nil {
		m.Host = types.StringValue(endpoint.Host)
		m.Port = types.Int64Value(endpoint.Port)
		if endpoint.CACertificate != "" {
			m.CACertificate = types.StringValue(endpoint.CACertificate)
		}
	}
	m.ReadonlyHost, m.ReadonlyPort = types.StringNull(), types.Int64Null()
	if endpoint := inst.ReadonlyEndpoint(); endpoint != nil {
		m.ReadonlyHost = types.StringValue(endpoint.Host)
		m.ReadonlyPort = types.Int64Value(endpoint.Port)
	}
	return diags
}

// setFromAPI writes the API's view and the connection URI. password is the default user's
// password as far as this provider knows it ("" when unknown, e.g. after import); it only ever
// goes into the sensitive connection_uri.
func (m *InstanceResourceModel) setFromAPI(inst *client.Instance, allowlist []client.AllowlistEntry, password string) diag.Diagnostics {
	diags := m.InstanceAttributesModel.setFromAPI(inst, allowlist)
	m.ConnectionURI = types.StringNull()
	if uri := ConnectionURI(inst.PrimaryEndpoint(), DefaultUsername, password); uri != "" {
		m.ConnectionURI = types.StringValue(uri)
	}
	return diags
}

func nonNilTags(tags map[string]string) map[string]string {
	if tags == nil {
		return map[string]string{}
	}
	return tags
}

func stringPointer(v types.String) *string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	s := v.ValueString()
	return &s
}

func int64Pointer(v types.Int64) *int64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	n := v.ValueInt64()
	return &n
}
