// Package provider is the Basalt Terraform provider: its settings, resources and data sources.
//
// Layout:
//
//	provider.go                    settings (endpoint, api_key, project) and the registry of types
//	instance_resource.go           basalt_instance: schema and create/read/update/delete/import
//	instance_model.go              basalt_instance's model and its mapping to and from the API
//	instance_restore.go            basalt_instance's restore_from block and restored_from
//	instance_user_resource.go      basalt_instance_user
//	backup_resource.go             basalt_backup: a manual backup, waited on until it has succeeded
//	backups_data_source.go         basalt_backups: an instance's backups
//	instance_data_source.go        basalt_instance (read only)
//	catalog_data_sources.go        basalt_regions, basalt_instance_types
//	cidr_type.go                   a CIDR string type whose equality is the network, not the text
//	connection_uri.go              redis[s]://user:password@host:port, built and read back
//	operation_wait.go              waits on an API operation, with its fault as the diagnostic
package provider

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"basalt/terraform-provider-basalt/internal/client"
)

// Environment variables that stand in for the provider settings.
const (
	EnvEndpoint = "BASALT_ENDPOINT"
	EnvAPIKey   = "BASALT_API_KEY"
	EnvProject  = "BASALT_PROJECT"
)

var _ provider.Provider = &BasaltProvider{}

// BasaltProvider is the provider; version is set by the build (main.go).
type BasaltProvider struct {
	version string
}

// BasaltProviderModel holds the provider block.
type BasaltProviderModel struct {
	Endpoint types.String `tfsdk:"endpoint"`
	APIKey   types.String `tfsdk:"api_key"`
	Project  types.String `tfsdk:"project"`
}

// providerData is what Configure hands every resource and data source.
type providerData struct {
	client  *client.Client
	project string
	locks   *instanceLocks
}

// New returns the provider factory for version.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &BasaltProvider{version: version} }
}

func (p *BasaltProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "basalt"
	resp.Version = p.version
}

func (p *BasaltProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages Basalt instances — a managed, persistent, Redis-compatible key-value database — through the Basalt REST API.",
		Attributes: map[string]schema.Attribute{
			"endpoint": schema.StringAttribute{
				MarkdownDescription: "Base URL of the Basalt API, e.g. `http://127.0.0.1:8080` (a trailing `/v1` is accepted). Defaults to the `BASALT_ENDPOINT` environment variable.",
				Optional:            true,
			},
			"api_key": schema.StringAttribute{
				MarkdownDescription: "API key, sent as `Authorization: Bearer <key>`. Create one in the console or with `POST /v1/api-keys`. Defaults to the `BASALT_API_KEY` environment variable.",
				Optional:            true,
				Sensitive:           true,
			},
			"project": schema.StringAttribute{
				MarkdownDescription: "ID of the project that resources are created in. Defaults to `BASALT_PROJECT`, else to the key's project when the key's user belongs to exactly one.",
				Optional:            true,
			},
		},
	}
}

func (p *BasaltProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var config BasaltProviderModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	for name, value := range map[string]types.String{"endpoint": config.Endpoint, "api_key": config.APIKey, "project": config.Project} {
		if value.IsUnknown() {
			resp.Diagnostics.AddAttributeError(path.Root(name), "Unknown provider setting",
				fmt.Sprintf("%s is not known until apply; the provider needs it to plan. Set it from a value known at plan time or from the environment.", name))
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	endpoint := settingOrEnv(config.Endpoint, EnvEndpoint)
	apiKey := settingOrEnv(config.APIKey, EnvAPIKey)
	project := settingOrEnv(config.Project, EnvProject)
	if endpoint == "" {
		resp.Diagnostics.AddAttributeError(path.Root("endpoint"), "Missing Basalt endpoint", "Set endpoint in the provider block or "+EnvEndpoint+".")
	}
	if apiKey == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Missing Basalt API key", "Set api_key in the provider block or "+EnvAPIKey+".")
	}
	if resp.Diagnostics.HasError() {
		return
	}
	c, err := client.New(endpoint, apiKey, "terraform-provider-basalt/"+p.version)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("endpoint"), "Invalid Basalt endpoint", err.Error())
		return
	}
	if project == "" {
		project, err = defaultProject(ctx, c)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("project"), "No project to use", err.Error())
			return
		}
	}
	data := &providerData{client: c, project: project, locks: &instanceLocks{}}
	resp.DataSourceData = data
	resp.ResourceData = data
}

func settingOrEnv(value types.String, env string) string {
	if !value.IsNull() && value.ValueString() != "" {
		return value.ValueString()
	}
	return os.Getenv(env)
}

// defaultProject is the only project of the key's user; with none or several, the user must say.
func defaultProject(ctx context.Context, c *client.Client) (string, error) {
	projects, err := c.MyProjects(ctx)
	if err != nil {
		return "", fmt.Errorf("reading the key's projects: %w", err)
	}
	switch len(projects) {
	case 1:
		return projects[0].ID, nil
	case 0:
		return "", fmt.Errorf("the API key's user belongs to no project; create one or set project")
	}
	names := make([]string, 0, len(projects))
	for _, p := range projects {
		names = append(names, fmt.Sprintf("%s (%s)", p.ID, p.Name))
	}
	return "", fmt.Errorf("the API key's user belongs to %d projects; set project (or %s) to one of: %s", len(projects), EnvProject, strings.Join(names, ", "))
}

func (p *BasaltProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{NewInstanceResource, NewInstanceUserResource, NewBackupResource}
}

func (p *BasaltProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{NewRegionsDataSource, NewInstanceTypesDataSource, NewInstanceDataSource, NewBenchmarkReportDataSource, NewBackupsDataSource}
}

// configurableResource is the Configure every resource shares.
type configurableResource struct {
	data *providerData
}

func (c *configurableResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	data, err := configuredData(req.ProviderData)
	if err != nil {
		resp.Diagnostics.AddError("Unexpected provider data", err.Error())
		return
	}
	c.data = data
}

// configuredData turns ProviderData into *providerData; nil (not configured yet) is not an error.
func configuredData(raw any) (*providerData, error) {
	if raw == nil {
		return nil, nil
	}
	data, ok := raw.(*providerData)
	if !ok {
		return nil, fmt.Errorf("expected *providerData, got %T; this is a bug in the provider", raw)
	}
	return data, nil
}
