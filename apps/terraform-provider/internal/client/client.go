// Package client is the provider's HTTP client for the Basalt REST API (/v1): typed requests
// and responses for the routes the provider uses, API errors as values, and the wait on an
// operation. It knows nothing about Terraform.
package client

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client calls one Basalt API with one API key.
type Client struct {
	endpoint  string
	apiKey    string
	http      *http.Client
	userAgent string
}

// New returns a client for endpoint (e.g. http://127.0.0.1:8080; a trailing /v1 is accepted).
func New(endpoint, apiKey, userAgent string) (*Client, error) {
	base := strings.TrimRight(endpoint, "/")
	base = strings.TrimSuffix(base, "/v1")
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("endpoint must be an http(s) URL such as http://127.0.0.1:8080, got %q", endpoint)
	}
	return &Client{
		endpoint:  base,
		apiKey:    apiKey,
		http:      &http.Client{Timeout: 60 * time.Second},
		userAgent: userAgent,
	}, nil
}

// APIError is a non-2xx answer: the API's {code, message, request_id} and the HTTP status.
type APIError struct {
	Status    int             `json:"-"`
	Code      string          `json:"code"`
	Message   string          `json:"message"`
	RequestID string          `json:"request_id"`
	Details   json.RawMessage `json:"details,omitempty"`
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("Basalt API answered %d %s: %s", e.Status, e.Code, e.Message)
	if len(e.Details) > 0 && string(e.Details) != "null" {
		msg += " " + string(e.Details)
	}
	if e.RequestID != "" {
		msg += fmt.Sprintf(" (request_id %s)", e.RequestID)
	}
	return msg
}

// IsNotFound reports whether err is the API's 404.
func IsNotFound(err error) bool {
	apiErr, ok := err.(*APIError)
	return ok && apiErr.Status == http.StatusNotFound
}

// newIdempotencyKey returns a random key so a POST retried after a lost answer runs once.
func newIdempotencyKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "terraform-" + hex.EncodeToString(b)
}

// do sends one request. body is JSON-encoded when not nil; out is decoded from a 2xx answer.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	raw, err := c.send(ctx, method, path, query, body, "application/json")
	if err != nil || out == nil || len(raw) == 0 {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: unexpected answer: %w", method, path, err)
	}
	return nil
}

// getText GETs a document the API serves as text (a report's markdown).
func (c *Client) getText(ctx context.Context, path, accept string) (string, error) {
	raw, err := c.send(ctx, http.MethodGet, path, nil, nil, accept)
	return string(raw), err
}

// send sends one request and returns the body of a 2xx answer; any other answer is an *APIError.
func (c *Client) send(ctx context.Context, method, path string, query url.Values, body any, accept string) ([]byte, error) {
	var reader io.Reader
	if body != nil {
		encoded, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		reader = bytes.NewReader(encoded)
	}
	target := c.endpoint + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, target, reader)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", c.userAgent)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if method == http.MethodPost {
		req.Header.Set("Idempotency-Key", newIdempotencyKey())
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 32<<20))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		apiErr := &APIError{Status: res.StatusCode}
		if json.Unmarshal(raw, apiErr) != nil || apiErr.Message == "" {
			apiErr.Code = http.StatusText(res.StatusCode)
			apiErr.Message = truncate(string(raw), 500)
		}
		return nil, apiErr
	}
	return raw, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// projectPath is /v1/projects/{project} with every further segment escaped.
func projectPath(project string, segments ...string) string {
	parts := []string{"/v1/projects", url.PathEscape(project)}
	for _, s := range segments {
		parts = append(parts, url.PathEscape(s))
	}
	return strings.Join(parts, "/")
}
