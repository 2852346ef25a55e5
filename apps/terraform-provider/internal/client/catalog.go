package client

import (
	"context"
	"net/http"
	"net/url"
)

// Region is RegionDto.
type Region struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Target    string `json:"target"`
	Available bool   `json:"available"`
	// UnavailableReason is why its workers cannot serve it (nil when available).
	UnavailableReason *string `json:"unavailable_reason"`
	// Architectures are the ones its workers place (standalone only on process VMs).
	Architectures []string `json:"architectures"`
}

// InstanceType is InstanceTypeDto (without the reference QPS).
type InstanceType struct {
	ID             string   `json:"id"`
	Size           string   `json:"size"`
	Vcpu           int64    `json:"vcpu"`
	MemoryGib      int64    `json:"memory_gib"`
	DiskGibMin     int64    `json:"disk_gib_min"`
	DiskGibMax     int64    `json:"disk_gib_max"`
	MaxConnections int64    `json:"max_connections"`
	Regions        []string `json:"regions"`
}

func (c *Client) ListRegions(ctx context.Context) ([]Region, error) {
	var out struct {
		Items []Region `json:"items"`
	}
	err := c.do(ctx, http.MethodGet, "/v1/regions", nil, nil, &out)
	return out.Items, err
}

// ListInstanceTypes lists every type, or only those offered in region when it is not empty.
func (c *Client) ListInstanceTypes(ctx context.Context, region string) ([]InstanceType, error) {
	var out struct {
		Items []InstanceType `json:"items"`
	}
	var query url.Values
	if region != "" {
		query = url.Values{"region": {region}}
	}
	err := c.do(ctx, http.MethodGet, "/v1/instance-types", query, nil, &out)
	return out.Items, err
}

// Project is ProjectDto.
type Project struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Role string `json:"role"`
}

// MyProjects lists the projects of the key's user.
func (c *Client) MyProjects(ctx context.Context) ([]Project, error) {
	var out struct {
		Projects []Project `json:"projects"`
	}
	err := c.do(ctx, http.MethodGet, "/v1/auth/me", nil, nil, &out)
	return out.Projects, err
}

// CreateProject creates a project owned by the key's user.
func (c *Client) CreateProject(ctx context.Context, name string) (*Project, error) {
	var out Project
	return &out, c.do(ctx, http.MethodPost, "/v1/projects", nil, map[string]string{"name": name}, &out)
}
