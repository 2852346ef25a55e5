package client

import (
	"context"
	"net/http"
)

// BackupError is BackupErrorDto: why a backup failed, and at which step of its operation.
type BackupError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Step    string `json:"step,omitempty"`
}

// Backup is BackupDto: one backup of an instance. EndTime is the point it restores to, null
// until it has succeeded.
type Backup struct {
	ID            string       `json:"id"`
	InstanceID    string       `json:"instance_id"`
	Kind          string       `json:"kind"`
	Status        string       `json:"status"`
	Timeline      *int64       `json:"timeline"`
	EndTime       *string      `json:"end_time"`
	EndLSN        *int64       `json:"end_lsn"`
	SizeBytes     int64        `json:"size_bytes"`
	Segments      int64        `json:"segments"`
	UploadedBytes int64        `json:"uploaded_bytes"`
	CreatedAt     string       `json:"created_at"`
	FinishedAt    *string      `json:"finished_at"`
	ExpiresAt     *string      `json:"expires_at"`
	OperationID   *string      `json:"operation_id"`
	Error         *BackupError `json:"error"`
}

// BackupAccepted is the answer of a backup request: the backup (pending) and the operation taking it.
type BackupAccepted struct {
	Backup    Backup     `json:"backup"`
	Operation *Operation `json:"operation"`
}

// CreateBackup asks for a manual backup of the instance now (kept until deleted).
func (c *Client) CreateBackup(ctx context.Context, project, instance string) (*BackupAccepted, error) {
	var out BackupAccepted
	return &out, c.do(ctx, http.MethodPost, projectPath(project, "instances", instance, "backups"), nil, nil, &out)
}

// ListBackups is every backup of the instance, newest first.
func (c *Client) ListBackups(ctx context.Context, project, instance string) ([]Backup, error) {
	var out struct {
		Items []Backup `json:"items"`
	}
	err := c.do(ctx, http.MethodGet, projectPath(project, "instances", instance, "backups"), nil, nil, &out)
	return out.Items, err
}

func (c *Client) GetBackup(ctx context.Context, project, id string) (*Backup, error) {
	var out Backup
	return &out, c.do(ctx, http.MethodGet, projectPath(project, "backups", id), nil, nil, &out)
}

// DeleteBackup asks for a finished backup to go: it is `deleting` until its objects are removed.
func (c *Client) DeleteBackup(ctx context.Context, project, id string) (*Backup, error) {
	var out Backup
	return &out, c.do(ctx, http.MethodDelete, projectPath(project, "backups", id), nil, nil, &out)
}
