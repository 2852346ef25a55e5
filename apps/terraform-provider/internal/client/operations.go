package client

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// OperationError is OperationErrorDto: the failed step, its message, exit status and output tail.
type OperationError struct {
	Step       *string `json:"step"`
	Message    string  `json:"message"`
	ExitCode   *int64  `json:"exit_code,omitempty"`
	OutputTail string  `json:"output_tail,omitempty"`
	Code       string  `json:"code,omitempty"`
}

// Operation is OperationDto.
type Operation struct {
	ID         string          `json:"id"`
	InstanceID *string         `json:"instance_id"`
	Type       string          `json:"type"`
	Status     string          `json:"status"`
	Progress   int64           `json:"progress"`
	Error      *OperationError `json:"error"`
}

// Finished reports whether the operation has succeeded or failed.
func (o *Operation) Finished() bool { return o.Status == "succeeded" || o.Status == "failed" }

func (c *Client) GetOperation(ctx context.Context, id string) (*Operation, error) {
	var out Operation
	return &out, c.do(ctx, "GET", "/v1/operations/"+id, nil, nil, &out)
}

// OperationFailed is a finished operation that failed, with the API's account of why.
type OperationFailed struct {
	Operation Operation
}

func (e *OperationFailed) Error() string {
	return DescribeFailure(&e.Operation)
}

// DescribeFailure is the text a person needs to act on a failed operation: which operation,
// which step, the message, the exit status and the tail of the failing tool's output.
func DescribeFailure(op *Operation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "operation %s (%s) failed", op.ID, op.Type)
	if op.Error == nil {
		b.WriteString(" without an error record")
		return b.String()
	}
	if op.Error.Step != nil && *op.Error.Step != "" {
		fmt.Fprintf(&b, " at step %s", *op.Error.Step)
	}
	fmt.Fprintf(&b, ": %s", op.Error.Message)
	if op.Error.ExitCode != nil {
		fmt.Fprintf(&b, " (exit status %d)", *op.Error.ExitCode)
	}
	if tail := strings.TrimSpace(op.Error.OutputTail); tail != "" {
		fmt.Fprintf(&b, "\n\nOutput tail:\n%s", tail)
	}
	return b.String()
}

// WaitOptions tune WaitForOperation; zero values take the defaults.
type WaitOptions struct {
	// Poll is the first interval between two reads; it doubles up to MaxPoll.
	Poll    time.Duration
	MaxPoll time.Duration
}

// WaitForOperation polls the operation until it finishes or ctx ends (the resource's timeout).
// A failed operation is an *OperationFailed. Transient read errors (5xx, network) are retried.
func (c *Client) WaitForOperation(ctx context.Context, id string, opts WaitOptions) (*Operation, error) {
	poll, maxPoll := opts.Poll, opts.MaxPoll
	if poll <= 0 {
		poll = 500 * time.Millisecond
	}
	if maxPoll <= 0 {
		maxPoll = 5 * time.Second
	}
	var last *Operation
	var lastErr error
	for {
		op, err := c.GetOperation(ctx, id)
		switch {
		case err == nil:
			last, lastErr = op, nil
			if op.Status == "succeeded" {
				return op, nil
			}
			if op.Status == "failed" {
				return op, &OperationFailed{Operation: *op}
			}
		case isTransient(err):
			lastErr = err
		default:
			return nil, err
		}
		timer := time.NewTimer(poll)
		select {
		case <-ctx.Done():
			timer.Stop()
			return last, timeoutError(id, last, lastErr, ctx.Err())
		case <-timer.C:
		}
		poll = min(poll*2, maxPoll)
	}
}

func isTransient(err error) bool {
	if apiErr, ok := err.(*APIError); ok {
		return apiErr.Status >= 500 || apiErr.Status == http.StatusTooManyRequests
	}
	return true // network errors
}

func timeoutError(id string, last *Operation, lastErr, cause error) error {
	state := "never read"
	if last != nil {
		state = fmt.Sprintf("still %s at %d%%", last.Status, last.Progress)
	}
	msg := fmt.Sprintf("gave up waiting for operation %s (%s): %v; it keeps running on the server, and the next apply reads where it got to", id, state, cause)
	if lastErr != nil {
		msg += fmt.Sprintf("; last read error: %v", lastErr)
	}
	return fmt.Errorf("%s", msg)
}
