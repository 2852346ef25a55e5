package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"basalt/terraform-provider-basalt/internal/client"
)

// waitForOperation waits on op (nil: the change needed no work) until it finishes or ctx ends.
// A failure becomes one error diagnostic that names the operation's failed step, its message,
// exit status and output tail, so the reason is in the terraform output, not elsewhere.
func waitForOperation(ctx context.Context, c *client.Client, op *client.Operation, what string) diag.Diagnostics {
	var diags diag.Diagnostics
	if op == nil {
		return diags
	}
	_, err := c.WaitForOperation(ctx, op.ID, client.WaitOptions{})
	if err == nil {
		return diags
	}
	var failed *client.OperationFailed
	if errors.As(err, &failed) {
		diags.AddError(what+" failed", failed.Error())
	} else {
		diags.AddError(what+": waiting on the operation failed", err.Error())
	}
	return diags
}
