package client

import (
	"context"
	"net/http"
)

// Parameters are the engine settings an instance takes; nil fields are the server's defaults.
type Parameters struct {
	Fsync      *string `json:"fsync,omitempty"`
	Maxclients *int64  `json:"maxclients,omitempty"`
	Timeout    *int64  `json:"timeout,omitempty"`
	// ReplicationMode is `sync` or `async`, for `standard` instances only.
	ReplicationMode *string `json:"replication_mode,omitempty"`
}

// AllowlistEntry is one allowed network. The API normalises CIDRs.
type AllowlistEntry struct {
	CIDR        string `json:"cidr"`
	Description string `json:"description,omitempty"`
}

// Endpoint is where an instance answers: role `primary` (reads and writes; follows the
// primary on failover) or `readonly` (the replicas).
type Endpoint struct {
	Role          string `json:"role"`
	Type          string `json:"type"`
	Host          string `json:"host"`
	Port          int64  `json:"port"`
	TLS           bool   `json:"tls"`
	CACertificate string `json:"ca_certificate,omitempty"`
}

// Fault is why an instance failed: the step, the tool's exit status and the tail of its output.
type Fault struct {
	Code        string `json:"code,omitempty"`
	Message     string `json:"message"`
	Step        string `json:"step"`
	ExitCode    *int64 `json:"exit_code,omitempty"`
	OutputTail  string `json:"output_tail,omitempty"`
	OperationID string `json:"operation_id,omitempty"`
}

// Node is one VM of an instance: its role, status and replication lag.
type Node struct {
	Name      string `json:"name"`
	PrivateIP string `json:"private_ip"`
	Role      string `json:"role"`
	Status    string `json:"status"`
	LagBytes  *int64 `json:"lag_bytes"`
}

// Instance is InstanceDto of the spec.
type Instance struct {
	ID                 string            `json:"id"`
	ProjectID          string            `json:"project_id"`
	Name               string            `json:"name"`
	InstanceType       string            `json:"instance_type"`
	Region             string            `json:"region"`
	EngineVersion      string            `json:"engine_version"`
	DiskGib            int64             `json:"disk_gib"`
	Architecture       string            `json:"architecture"`
	Replicas           int64             `json:"replicas"`
	Nodes              []Node            `json:"nodes"`
	Status             string            `json:"status"`
	Health             *string           `json:"health"`
	Fault              *Fault            `json:"fault"`
	Endpoints          []Endpoint        `json:"endpoints"`
	TLSEnabled         bool              `json:"tls_enabled"`
	DeletionProtection bool              `json:"deletion_protection"`
	DataBrowser        bool              `json:"data_browser_enabled"`
	Tags               map[string]string `json:"tags"`
	Parameters         Parameters        `json:"parameters"`
	BackupWindow       string            `json:"backup_window"`
	BackupRetention    int64             `json:"backup_retention_days"`
	RestoredFrom       *RestoreSource    `json:"restored_from"`
	CurrentOperationID *string           `json:"current_operation_id"`
	CreatedAt          string            `json:"created_at"`
}

// Gone reports whether the instance no longer exists for its owner (deleted rows are kept).
func (i *Instance) Gone() bool { return i.Status == "deleted" }

// PrimaryEndpoint is the first private endpoint of role primary, else the first of that role;
// nil before provisioning.
func (i *Instance) PrimaryEndpoint() *Endpoint { return i.endpoint("primary") }

// ReadonlyEndpoint is the replicas' endpoint; nil for a standalone instance.
func (i *Instance) ReadonlyEndpoint() *Endpoint { return i.endpoint("readonly") }

func (i *Instance) endpoint(role string) *Endpoint {
	var found *Endpoint
	for k := range i.Endpoints {
		e := &i.Endpoints[k]
		if e.Role != role {
			continue
		}
		if e.Type == "private" {
			return e
		}
		if found == nil {
			found = e
		}
	}
	return found
}

// RestoreSource is RestoreSourceDto: exactly one of BackupID, SourceInstanceID with
// PointInTime (RFC 3339 to the second), or RdbImportID (an uploaded dump.rdb).
type RestoreSource struct {
	BackupID         string `json:"backup_id,omitempty"`
	SourceInstanceID string `json:"source_instance_id,omitempty"`
	PointInTime      string `json:"point_in_time,omitempty"`
	RdbImportID      string `json:"rdb_import_id,omitempty"`
}

// CreateInstanceRequest is CreateInstanceDto.
type CreateInstanceRequest struct {
	Name               string            `json:"name"`
	InstanceType       string            `json:"instance_type"`
	Region             string            `json:"region"`
	Architecture       string            `json:"architecture,omitempty"`
	Replicas           *int64            `json:"replicas,omitempty"`
	DiskGib            *int64            `json:"disk_gib,omitempty"`
	Password           *string           `json:"password,omitempty"`
	Allowlist          []AllowlistEntry  `json:"allowlist"`
	TLSEnabled         bool              `json:"tls_enabled"`
	DeletionProtection bool              `json:"deletion_protection"`
	DataBrowser        *bool             `json:"data_browser_enabled,omitempty"`
	Tags               map[string]string `json:"tags"`
	Parameters         *Parameters       `json:"parameters,omitempty"`
	BackupWindow       *string           `json:"backup_window,omitempty"`
	BackupRetention    *int64            `json:"backup_retention_days,omitempty"`
	RestoreFrom        *RestoreSource    `json:"restore_from,omitempty"`
}

// UpdateInstanceRequest is UpdateInstanceDto: only the fields set are changed.
type UpdateInstanceRequest struct {
	Name         *string `json:"name,omitempty"`
	InstanceType *string `json:"instance_type,omitempty"`
	DiskGib      *int64  `json:"disk_gib,omitempty"`
	// A pointer: omitempty drops an empty map, but {} is a change (remove every tag).
	Tags               *map[string]string `json:"tags,omitempty"`
	DeletionProtection *bool              `json:"deletion_protection,omitempty"`
	DataBrowser        *bool              `json:"data_browser_enabled,omitempty"`
	Parameters         *Parameters        `json:"parameters,omitempty"`
	BackupWindow       *string            `json:"backup_window,omitempty"`
	BackupRetention    *int64             `json:"backup_retention_days,omitempty"`
}

// Accepted is the answer of a change: the instance now and the operation doing the work
// (nil when the change needed no work on the instance).
type Accepted struct {
	Instance  Instance   `json:"instance"`
	Operation *Operation `json:"operation"`
}

// Created is the answer of a create: Accepted plus the default user's password, shown once.
type Created struct {
	Accepted
	DefaultUser struct {
		Username string `json:"username"`
		Password string `json:"password"`
	} `json:"default_user"`
}

func (c *Client) CreateInstance(ctx context.Context, project string, req CreateInstanceRequest) (*Created, error) {
	var out Created
	return &out, c.do(ctx, http.MethodPost, projectPath(project, "instances"), nil, req, &out)
}

func (c *Client) GetInstance(ctx context.Context, project, id string) (*Instance, error) {
	var out Instance
	return &out, c.do(ctx, http.MethodGet, projectPath(project, "instances", id), nil, nil, &out)
}

func (c *Client) UpdateInstance(ctx context.Context, project, id string, req UpdateInstanceRequest) (*Accepted, error) {
	var out Accepted
	return &out, c.do(ctx, http.MethodPatch, projectPath(project, "instances", id), nil, req, &out)
}

func (c *Client) DeleteInstance(ctx context.Context, project, id string) (*Accepted, error) {
	var out Accepted
	return &out, c.do(ctx, http.MethodDelete, projectPath(project, "instances", id), nil, nil, &out)
}

// Allowlist is AllowlistDto: the entries and the operation applying them to a live engine.
type Allowlist struct {
	Items     []AllowlistEntry `json:"items"`
	Operation *Operation       `json:"operation"`
}

func (c *Client) GetAllowlist(ctx context.Context, project, id string) (*Allowlist, error) {
	var out Allowlist
	return &out, c.do(ctx, http.MethodGet, projectPath(project, "instances", id, "allowlist"), nil, nil, &out)
}

func (c *Client) ReplaceAllowlist(ctx context.Context, project, id string, entries []AllowlistEntry) (*Allowlist, error) {
	var out Allowlist
	if entries == nil {
		entries = []AllowlistEntry{}
	}
	body := map[string]any{"entries": entries}
	return &out, c.do(ctx, http.MethodPut, projectPath(project, "instances", id, "allowlist"), nil, body, &out)
}
