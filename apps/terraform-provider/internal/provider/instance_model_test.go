package provider

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"basalt/terraform-provider-basalt/internal/client"
)

func TestPasswordRotates(t *testing.T) {
	pw := types.StringValue("first-password-1")
	cases := []struct {
		name                        string
		planPassword, statePassword types.String
		planVersion, stateVersion   types.Int64
		want                        bool
	}{
		{"nothing changed", pw, pw, types.Int64Value(1), types.Int64Value(1), false},
		{"version bumped", pw, pw, types.Int64Value(2), types.Int64Value(1), true},
		{"version first set", types.StringNull(), types.StringNull(), types.Int64Value(1), types.Int64Null(), true},
		{"version removed", types.StringNull(), types.StringNull(), types.Int64Null(), types.Int64Value(1), false},
		{"password changed", types.StringValue("second-password-2"), pw, types.Int64Null(), types.Int64Null(), true},
		{"password unknown until apply", types.StringUnknown(), pw, types.Int64Null(), types.Int64Null(), true},
	}
	for _, c := range cases {
		if got := passwordRotates(c.planPassword, c.planVersion, c.statePassword, c.stateVersion); got != c.want {
			t.Errorf("%s: passwordRotates = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestAllowlistRoundTrip(t *testing.T) {
	ctx := context.Background()
	entries := []client.AllowlistEntry{{CIDR: "192.0.2.0/24", Description: "docs"}, {CIDR: "10.77.0.1/32"}}
	set, diags := allowlistToModel(entries)
	if diags.HasError() {
		t.Fatal(diags)
	}
	back, diags := allowlistFromModel(ctx, set)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if len(back) != 2 || back[0].CIDR != "10.77.0.1/32" || back[1].Description != "docs" {
		t.Errorf("round trip gave %+v", back)
	}
	empty, _ := allowlistFromModel(ctx, types.SetNull(allowlistEntryType))
	if empty == nil || len(empty) != 0 {
		t.Errorf("a null allowlist must send [] (not null), got %#v", empty)
	}
}

func TestInstancePatchOnlyWhatChanged(t *testing.T) {
	ctx := context.Background()
	inst := &client.Instance{
		ID: "5f8e3c1e-0000-4000-8000-000000000001", Name: "cache", InstanceType: "kv.standard.small", Region: "local",
		DiskGib: 10, Status: "running", Tags: map[string]string{"team": "web"},
	}
	var state InstanceResourceModel
	if diags := state.setFromAPI(inst, nil, "secretsecret1"); diags.HasError() {
		t.Fatal(diags)
	}
	plan := state
	if patch, diags := instancePatch(ctx, &plan, &state); diags.HasError() || patch != nil {
		t.Fatalf("no change must send no PATCH, got %+v %v", patch, diags)
	}
	plan.InstanceType = types.StringValue("kv.standard.large")
	plan.Tags = types.MapValueMust(types.StringType, nil)
	patch, diags := instancePatch(ctx, &plan, &state)
	if diags.HasError() || patch == nil {
		t.Fatalf("want a PATCH, got %v", diags)
	}
	if patch.InstanceType == nil || *patch.InstanceType != "kv.standard.large" || patch.Name != nil || patch.DiskGib != nil {
		t.Errorf("PATCH %+v: want only instance_type and tags", patch)
	}
	body, err := json.Marshal(patch)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"instance_type":"kv.standard.large","tags":{}}`; string(body) != want {
		t.Errorf("PATCH body %s, want %s (removing every tag sends tags {})", body, want)
	}
}

func TestSetFromAPIConnectionURI(t *testing.T) {
	inst := &client.Instance{ID: "i", Status: "creating", Tags: nil}
	var m InstanceResourceModel
	m.setFromAPI(inst, nil, "secretsecret1")
	if !m.ConnectionURI.IsNull() || !m.Host.IsNull() {
		t.Errorf("no endpoint yet: want null host and connection_uri, got %v %v", m.Host, m.ConnectionURI)
	}
	inst.Endpoints = []client.Endpoint{{Role: "primary", Type: "private", Host: "10.77.0.9", Port: 6379}}
	m.setFromAPI(inst, nil, "")
	if !m.ConnectionURI.IsNull() {
		t.Errorf("no known password (after import): want null connection_uri, got %v", m.ConnectionURI)
	}
	m.setFromAPI(inst, nil, "secretsecret1")
	if m.ConnectionURI.ValueString() != "redis://default:secretsecret1@10.77.0.9:6379" {
		t.Errorf("connection_uri = %q", m.ConnectionURI.ValueString())
	}
}
