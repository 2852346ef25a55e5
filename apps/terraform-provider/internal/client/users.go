package client

import (
	"context"
	"net/http"
)

// InstanceUser is InstanceUserDto; passwords are never read back.
type InstanceUser struct {
	Username              string  `json:"username"`
	Permission            string  `json:"permission"`
	OldPasswordValidUntil *string `json:"old_password_valid_until"`
	CreatedAt             string  `json:"created_at"`
}

// UserChange is the answer of a user change and the operation applying it to a live engine.
type UserChange struct {
	User      InstanceUser `json:"user"`
	Operation *Operation   `json:"operation"`
	// Password is set by create and reset-password only: shown once.
	Password string `json:"password,omitempty"`
}

// GetInstanceUser reads one user; a missing user (or instance) is the API's 404.
func (c *Client) GetInstanceUser(ctx context.Context, project, instance, username string) (*InstanceUser, error) {
	var out InstanceUser
	if err := c.do(ctx, http.MethodGet, projectPath(project, "instances", instance, "users", username), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

func (c *Client) CreateInstanceUser(ctx context.Context, project, instance, username, permission string, password *string) (*UserChange, error) {
	var out UserChange
	body := map[string]any{"username": username, "permission": permission}
	if password != nil {
		body["password"] = *password
	}
	return &out, c.do(ctx, http.MethodPost, projectPath(project, "instances", instance, "users"), nil, body, &out)
}

func (c *Client) UpdateInstanceUser(ctx context.Context, project, instance, username, permission string) (*UserChange, error) {
	var out UserChange
	body := map[string]any{"permission": permission}
	return &out, c.do(ctx, http.MethodPatch, projectPath(project, "instances", instance, "users", username), nil, body, &out)
}

// ResetPassword starts a rotation: the new password works at once, the old one until revoked
// or until the rotation window ends.
func (c *Client) ResetPassword(ctx context.Context, project, instance, username string, password *string) (*UserChange, error) {
	var out UserChange
	body := map[string]any{}
	if password != nil {
		body["password"] = *password
	}
	return &out, c.do(ctx, http.MethodPost, projectPath(project, "instances", instance, "users", username, "reset-password"), nil, body, &out)
}

func (c *Client) RevokeOldPassword(ctx context.Context, project, instance, username string) (*UserChange, error) {
	var out UserChange
	return &out, c.do(ctx, http.MethodPost, projectPath(project, "instances", instance, "users", username, "revoke-old-password"), nil, map[string]any{}, &out)
}

func (c *Client) DeleteInstanceUser(ctx context.Context, project, instance, username string) (*Operation, error) {
	var out struct {
		Operation *Operation `json:"operation"`
	}
	err := c.do(ctx, http.MethodDelete, projectPath(project, "instances", instance, "users", username), nil, nil, &out)
	return out.Operation, err
}
