package provider

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"basalt/terraform-provider-basalt/internal/client"
)

// The same cases as packages/api-client/test/backup-rules.test.ts: the provider refuses at plan
// time what the API refuses at apply.
func TestBackupWindowProblem(t *testing.T) {
	for window, want := range map[string]string{
		"03:00-04:00": "",
		"23:30-00:30": "", // crosses midnight
		"00:00-23:59": "",
		"03:00-03:59": "must be at least 60 minutes long",
		"23:30-00:00": "must be at least 60 minutes long",
		"03:00-03:00": "", // a whole day
		"3:00-4:00":   "must be HH:MM-HH:MM (24-hour, UTC), e.g. 03:00-04:00",
		"24:00-01:00": "must be HH:MM-HH:MM (24-hour, UTC), e.g. 03:00-04:00",
		"03:00":       "must be HH:MM-HH:MM (24-hour, UTC), e.g. 03:00-04:00",
	} {
		if got := backupWindowProblem(window); got != want {
			t.Errorf("backupWindowProblem(%q) = %q, want %q", window, got, want)
		}
	}
}

func TestPointInTimeProblem(t *testing.T) {
	for point, ok := range map[string]bool{
		"2026-12-01T10:15:30Z":      true,
		"2026-12-01T10:15:30+01:00": true,
		"2026-12-01T10:15:30.5Z":    false, // a restore stops at a whole second
		"2026-12-01T10:15Z":         false,
		"2026-12-01 10:15:30Z":      false,
		"2026-02-30T10:15:30Z":      false,
		"2026-12-01T10:15:30":       false, // no time zone
	} {
		if got := pointInTimeProblem(point) == ""; got != ok {
			t.Errorf("pointInTimeProblem(%q) accepts = %v, want %v", point, got, ok)
		}
	}
}

func TestRestoreFromShape(t *testing.T) {
	s, null, unknown := types.StringValue, types.StringNull(), types.StringUnknown()
	cases := []struct {
		name string
		m    restoreSourceModel
		ok   bool
	}{
		{"a backup", restoreSourceModel{s("b"), null, null, null}, true},
		{"a point of an instance", restoreSourceModel{null, s("i"), s("2026-12-01T10:15:30Z"), null}, true},
		{"an RDB upload", restoreSourceModel{null, null, null, s("u")}, true},
		{"nothing", restoreSourceModel{null, null, null, null}, false},
		{"both", restoreSourceModel{s("b"), s("i"), s("2026-12-01T10:15:30Z"), null}, false},
		{"an instance without a point", restoreSourceModel{null, s("i"), null, null}, false},
		{"a backup and a point", restoreSourceModel{s("b"), null, s("2026-12-01T10:15:30Z"), null}, false},
		{"a backup and an RDB upload", restoreSourceModel{s("b"), null, null, s("u")}, false},
		{"a point and an RDB upload", restoreSourceModel{null, s("i"), s("2026-12-01T10:15:30Z"), s("u")}, false},
		{"a backup known at apply", restoreSourceModel{unknown, null, null, null}, true},
		{"an upload known at apply", restoreSourceModel{null, null, null, unknown}, true},
	}
	for _, c := range cases {
		if got := restoreFromProblem(c.m) == ""; got != c.ok {
			t.Errorf("%s: accepted = %v, want %v (%q)", c.name, got, c.ok, restoreFromProblem(c.m))
		}
	}
}

func TestSameRestoreSource(t *testing.T) {
	ctx := context.Background()
	object := func(source *client.RestoreSource) types.Object {
		o, diags := restoreSourceToModel(source)
		if diags.HasError() {
			t.Fatal(diags)
		}
		return o
	}
	restored := object(&client.RestoreSource{SourceInstanceID: "i", PointInTime: "2026-12-01T09:15:30Z"})
	if !sameRestoreSource(ctx, object(&client.RestoreSource{SourceInstanceID: "i", PointInTime: "2026-12-01T10:15:30+01:00"}), restored) {
		t.Error("the same instant written with another offset must be the same source")
	}
	if sameRestoreSource(ctx, object(&client.RestoreSource{SourceInstanceID: "i", PointInTime: "2026-12-01T09:15:31Z"}), restored) {
		t.Error("another second is another source")
	}
	if !sameRestoreSource(ctx, object(&client.RestoreSource{BackupID: "b"}), object(&client.RestoreSource{BackupID: "b"})) {
		t.Error("the same backup is the same source")
	}
	if !sameRestoreSource(ctx, object(&client.RestoreSource{RdbImportID: "u"}), object(&client.RestoreSource{RdbImportID: "u"})) ||
		sameRestoreSource(ctx, object(&client.RestoreSource{RdbImportID: "u"}), object(&client.RestoreSource{RdbImportID: "v"})) {
		t.Error("an RDB upload is the same source only as itself")
	}
	if sameRestoreSource(ctx, object(&client.RestoreSource{BackupID: "b"}), types.ObjectNull(restoreSourceAttrTypes)) {
		t.Error("an instance that started empty was restored from nothing")
	}
}

func TestBackupSettingsReadAndPatched(t *testing.T) {
	ctx := context.Background()
	var instance client.Instance
	body := `{"id":"i","status":"running","backup_window":"22:00-23:00","backup_retention_days":14,"restored_from":{"backup_id":"b"}}`
	if err := json.Unmarshal([]byte(body), &instance); err != nil {
		t.Fatal(err)
	}
	var state InstanceResourceModel
	state.RestoreFrom = types.ObjectNull(restoreSourceAttrTypes)
	if diags := state.setFromAPI(&instance, nil, ""); diags.HasError() {
		t.Fatal(diags)
	}
	if state.BackupWindow.ValueString() != "22:00-23:00" || state.BackupRetention.ValueInt64() != 14 {
		t.Errorf("backup settings read as %v, %v", state.BackupWindow, state.BackupRetention)
	}
	if got := state.RestoredFrom.Attributes()["backup_id"]; !got.Equal(types.StringValue("b")) || !state.RestoreFrom.IsNull() {
		t.Errorf("restored_from = %v (restore_from %v): the API's account goes to restored_from only", state.RestoredFrom, state.RestoreFrom)
	}
	plan := state
	plan.BackupRetention = types.Int64Value(0)
	patch, diags := instancePatch(ctx, &plan, &state)
	if diags.HasError() || patch == nil {
		t.Fatalf("want a PATCH, got %v", diags)
	}
	encoded, _ := json.Marshal(patch)
	if want := `{"backup_retention_days":0}`; string(encoded) != want {
		t.Errorf("PATCH body %s, want %s (0 turns automatic backups off and must be sent)", encoded, want)
	}
}

func TestBackupFailure(t *testing.T) {
	b := &client.Backup{ID: "b", Status: "failed", Error: &client.BackupError{Code: "object_store_unavailable", Message: "the store refused the upload", Step: "store_segments"}}
	if got, want := backupFailure(b), "backup b failed at step store_segments: the store refused the upload (object_store_unavailable)"; got != want {
		t.Errorf("backupFailure = %q, want %q", got, want)
	}
}
