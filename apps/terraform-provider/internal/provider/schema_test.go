package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// Every schema is valid and every attribute, nested ones included, has a MarkdownDescription:
// the docs are generated from them.
func TestSchemasAreValidAndDescribed(t *testing.T) {
	ctx := context.Background()
	p := New("test")()
	var pResp provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &pResp)
	if pResp.Diagnostics.HasError() {
		t.Fatal(pResp.Diagnostics)
	}
	for name, a := range pResp.Schema.Attributes {
		if a.GetMarkdownDescription() == "" {
			t.Errorf("provider.%s has no MarkdownDescription", name)
		}
	}
	for _, newResource := range p.Resources(ctx) {
		r := newResource()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "basalt"}, &meta)
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		if diags := resp.Schema.ValidateImplementation(ctx); resp.Diagnostics.HasError() || diags.HasError() {
			t.Errorf("%s: %v %v", meta.TypeName, resp.Diagnostics, diags)
		}
		checkResourceDescriptions(t, meta.TypeName, resp.Schema.Attributes)
	}
	for _, newDataSource := range p.DataSources(ctx) {
		d := newDataSource()
		var meta datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "basalt"}, &meta)
		var resp datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &resp)
		if diags := resp.Schema.ValidateImplementation(ctx); resp.Diagnostics.HasError() || diags.HasError() {
			t.Errorf("%s: %v %v", meta.TypeName, resp.Diagnostics, diags)
		}
		checkDataSourceDescriptions(t, meta.TypeName, resp.Schema.Attributes)
	}
}

func checkResourceDescriptions(t *testing.T, prefix string, attrs map[string]rschema.Attribute) {
	for name, a := range attrs {
		if a.GetMarkdownDescription() == "" {
			t.Errorf("%s.%s has no MarkdownDescription", prefix, name)
		}
		switch n := a.(type) {
		case rschema.SetNestedAttribute:
			checkResourceDescriptions(t, prefix+"."+name, n.NestedObject.Attributes)
		case rschema.SingleNestedAttribute:
			checkResourceDescriptions(t, prefix+"."+name, n.Attributes)
		}
	}
}

func checkDataSourceDescriptions(t *testing.T, prefix string, attrs map[string]dschema.Attribute) {
	for name, a := range attrs {
		if a.GetMarkdownDescription() == "" {
			t.Errorf("%s.%s has no MarkdownDescription", prefix, name)
		}
		switch n := a.(type) {
		case dschema.SetNestedAttribute:
			checkDataSourceDescriptions(t, prefix+"."+name, n.NestedObject.Attributes)
		case dschema.ListNestedAttribute:
			checkDataSourceDescriptions(t, prefix+"."+name, n.NestedObject.Attributes)
		case dschema.SingleNestedAttribute:
			checkDataSourceDescriptions(t, prefix+"."+name, n.Attributes)
		}
	}
}
